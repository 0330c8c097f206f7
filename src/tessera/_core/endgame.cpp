// Exact endgame search (see endgame.hpp; the reference is tessera/engine/endgame_reference.py).
#include "endgame.hpp"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <deque>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>

#include "movegen_binding.hpp"

namespace py = pybind11;

namespace tessera::endgame {

namespace {

using Clock = std::chrono::steady_clock;
using movegen::Move;

constexpr int INF = 1 << 28;
constexpr int PROVEN = 255;        // the depth of a table entry that holds to the end of the game
constexpr int UNLIMITED = 100000;  // the depth of a plain search: games end long before
constexpr uint8_t BLANK_BIT = 0x80;

enum Bound : uint64_t { EXACT = 0, LOWER = 1, UPPER = 2 };

// -- Zobrist keys ------------------------------------------------------------------------------

// SplitMix64's finaliser: the keys are a fixed function of what they stand for, so any two
// solvers (and every thread) hash a position alike without sharing a table of random numbers.
inline uint64_t mix(uint64_t x) {
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

enum KeyKind : uint64_t { SQUARE = 1, RACK = 2, TO_MOVE = 3, SCORELESS = 4, PASSES = 5, BAG = 6 };

inline uint64_t zkey(KeyKind kind, uint64_t a, uint64_t b = 0, uint64_t c = 0) {
    return mix((static_cast<uint64_t>(kind) << 56) ^ (a << 32) ^ (b << 16) ^ c);
}

// A tile on a square: letters 1..63, designated blanks 64 + letter.
inline uint64_t square_key(int sq, uint8_t t) {
    return zkey(SQUARE, static_cast<uint64_t>(sq), (t & BLANK_BIT) ? 64u + (t & 0x7F) : t);
}

// The k-th copy (from 0) of tile t on player p's rack: a rack holding c copies hashes as the
// keys of copies 0..c-1, so adding or removing one copy changes one key.
inline uint64_t rack_key(int p, int t, int k) {
    return zkey(RACK, static_cast<uint64_t>(p), static_cast<uint64_t>(t), static_cast<uint64_t>(k));
}

// A short fingerprint of a move (22 bits, never 0) to find the table's best move in a list.
uint32_t fingerprint(const Move& m) {
    uint64_t h = static_cast<uint64_t>(m.kind) | static_cast<uint64_t>(m.row) << 8 |
                 static_cast<uint64_t>(m.col) << 16 | static_cast<uint64_t>(m.across) << 24 |
                 static_cast<uint64_t>(m.len) << 32;
    h = mix(h);
    for (int i = 0; i < m.len; ++i) h = mix(h ^ m.word[i]);
    return static_cast<uint32_t>(h & 0x3FFFFF) | 1u;
}

bool same_move(const Move& a, const Move& b) {
    if (a.kind != b.kind) return false;
    if (a.kind != movegen::PLAY) return a.kind == movegen::PASS;
    return a.row == b.row && a.col == b.col && a.across == b.across && a.len == b.len &&
           std::memcmp(a.word, b.word, a.len) == 0;
}

inline uint64_t pack(int value, Bound bound, int depth, uint32_t move) {
    return static_cast<uint64_t>(static_cast<uint32_t>(value)) | static_cast<uint64_t>(bound) << 32 |
           static_cast<uint64_t>(std::min(depth, PROVEN)) << 34 | static_cast<uint64_t>(move) << 42;
}
inline int entry_value(uint64_t d) { return static_cast<int32_t>(static_cast<uint32_t>(d)); }
inline Bound entry_bound(uint64_t d) { return static_cast<Bound>((d >> 32) & 3); }
inline int entry_depth(uint64_t d) { return static_cast<int>((d >> 34) & 0xFF); }
inline uint32_t entry_move(uint64_t d) { return static_cast<uint32_t>(d >> 42); }

// -- what every thread of one search shares ------------------------------------------------------

struct Shared {
    const movegen::Config& cfg;
    const EndRules& rules;
    Table* table;  // nullptr: no table (plain search)
    Options opt;
    bool pvs = true;
    bool deepen = true;
    bool timed = false;
    Clock::time_point deadline;
    std::atomic<bool> stop{false};
    std::vector<Move> root;  // the root's moves, generated once

    std::mutex mu;  // guards the published result below
    bool have = false;
    int depth = 0;
    int value = 0;
    bool proven = false;
    std::vector<Move> line;

    std::atomic<uint64_t> nodes{0}, probes{0}, hits{0};

    Shared(const movegen::Config& c, const EndRules& r) : cfg(c), rules(r) {}

    // A completed iteration: kept if it is the first, the first proven, or deeper.
    void publish(int d, int v, const std::vector<Move>& pv, bool is_proven) {
        std::lock_guard<std::mutex> lock(mu);
        if (proven) return;
        if (!have || is_proven || d > depth) {
            have = true;
            depth = d;
            value = v;
            proven = is_proven;
            line = pv;
        }
    }
};

// -- one searching thread ------------------------------------------------------------------------

class Worker {
  public:
    Worker(Shared& sh, const State& st, int id) : sh_(sh), c_(sh.cfg), id_(id) {
        nletters_ = c_.letters();
        board_ = st.board;
        for (int p = 0; p < 2; ++p) {
            count_[p] = points_[p] = 0;
            for (int t = 0; t < MAX_TILES; ++t) rack_[p][t] = 0;
            for (int t = 0; t <= nletters_; ++t) {
                rack_[p][t] = st.racks[p][t];
                count_[p] += rack_[p][t];
                if (t > 0) points_[p] += rack_[p][t] * c_.values[t];
            }
        }
        bag_n_ = static_cast<int>(st.bag.size());
        for (int i = 0; i < bag_n_; ++i) bag_[i] = st.bag[i];
        bag_pos_ = 0;
        stm_ = 0;
        scoreless_ = st.scoreless;
        passes_ = st.passes;
        on_board_ = 0;
        for (uint8_t t : board_) on_board_ += t != 0;
        hash_ = full_hash();
        rack_vec_.assign(nletters_ + 1, 0);
        checks_ = movegen::cross_checks(c_, board_.data());
    }

    // Iterative deepening from depth `first` (or one plain search to the end).
    void run(int first) {
        root_ = sh_.root;
        root_value_.assign(root_.size(), -INF);
        if (id_ > 0 && root_.size() > 2) {
            // helpers start the list at another move, so the threads part ways at once
            std::rotate(root_.begin() + 1, root_.begin() + 1 + (id_ % (root_.size() - 1)),
                        root_.end());
        }
        if (!sh_.deepen) {
            bool proven = false;
            const int v = search(UNLIMITED, -INF, INF, 0, true, proven);
            if (!stopped_) sh_.publish(UNLIMITED, v, pv_[0], proven);
            finish();
            return;
        }
        for (int d = first;; ++d) {
            if (sh_.opt.max_depth > 0 && d > sh_.opt.max_depth) break;
            bool proven = false;
            const int v = search(d, -INF, INF, 0, true, proven);
            if (stopped_) break;
            sh_.publish(d, v, pv_[0], proven);
            sort_root();
            if (proven) {
                sh_.stop.store(true, std::memory_order_relaxed);
                break;
            }
        }
        finish();
    }

    // The value of a root move by a one-ply look (when no iteration completed in time).
    int quick_value(const Move& m) {
        Undo u;
        bool ended = false;
        const int sc = make(m, u, ended, 0);
        const int v = ended ? sc : sc - estimate();
        unmake(m, u, 0);
        return v;
    }

  private:
    struct Undo {
        uint64_t hash;
        int scoreless, passes;
        int drawn;
    };

    Shared& sh_;
    const movegen::Config& c_;
    int id_;
    int nletters_ = 0;
    std::vector<uint8_t> board_;
    int rack_[2][MAX_TILES];
    int count_[2];
    int points_[2];
    uint8_t bag_[MAX_BAG] = {};
    int bag_n_ = 0, bag_pos_ = 0;
    int stm_ = 0;
    int scoreless_ = 0, passes_ = 0;
    int on_board_ = 0;
    uint64_t hash_ = 0;
    uint64_t nodes_ = 0, probes_ = 0, hits_ = 0;
    bool stopped_ = false;
    std::vector<int> rack_vec_;
    movegen::CrossChecks checks_;            // the board's, kept as tiles are placed
    std::deque<movegen::CrossChecks> saved_;  // per ply: the checks before that ply's play
    // per ply; a deque, so growing it leaves the lists of shallower plies where they are
    std::deque<std::vector<Move>> lists_;
    std::deque<std::vector<Move>> pv_{1};
    std::vector<Move> root_;
    std::vector<int> root_value_;

    void finish() {
        sh_.nodes.fetch_add(nodes_, std::memory_order_relaxed);
        sh_.probes.fetch_add(probes_, std::memory_order_relaxed);
        sh_.hits.fetch_add(hits_, std::memory_order_relaxed);
    }

    bool scoreless_counts() const { return sh_.rules.scoreless_turns_to_end >= 0; }
    bool passes_count() const { return sh_.rules.passes_to_end >= 0; }

    uint64_t bag_hash() const {
        uint64_t h = 0;
        for (int i = bag_pos_; i < bag_n_; ++i) {
            h ^= zkey(BAG, static_cast<uint64_t>(i - bag_pos_), bag_[i]);
        }
        return h;
    }

    uint64_t counters_hash() const {
        uint64_t h = 0;
        if (scoreless_counts()) h ^= zkey(SCORELESS, static_cast<uint64_t>(scoreless_));
        if (passes_count()) h ^= zkey(PASSES, static_cast<uint64_t>(passes_));
        return h;
    }

    uint64_t full_hash() const {
        uint64_t h = 0;
        for (size_t sq = 0; sq < board_.size(); ++sq) {
            if (board_[sq]) h ^= square_key(static_cast<int>(sq), board_[sq]);
        }
        for (int p = 0; p < 2; ++p) {
            for (int t = 0; t <= nletters_; ++t) {
                for (int k = 0; k < rack_[p][t]; ++k) h ^= rack_key(p, t, k);
            }
        }
        if (stm_) h ^= zkey(TO_MOVE, 1);
        return h ^ bag_hash() ^ counters_hash();
    }

    // The spread change the side to move may expect when a search stops at its horizon: the
    // racks' difference, as if the game ended on scoreless turns now. (Optimistic estimates
    // for the side to move, such as the static player's endgame rule seen from the other side,
    // make the values of odd and even depths swing apart and the deepening slower.)
    int estimate() const { return points_[1 - stm_] - points_[stm_]; }

    void add_tile(int p, int t) {
        hash_ ^= rack_key(p, t, rack_[p][t]);
        ++rack_[p][t];
        ++count_[p];
        if (t > 0) points_[p] += c_.values[t];
    }

    void remove_tile(int p, int t) {
        --rack_[p][t];
        hash_ ^= rack_key(p, t, rack_[p][t]);
        --count_[p];
        if (t > 0) points_[p] -= c_.values[t];
    }

    // Make move m for the side to move. Returns its score, or, when the move ends the game
    // (ended = true), the mover's whole spread change including the end-of-game adjustment.
    int make(const Move& m, Undo& u, bool& ended, size_t ply) {
        u.hash = hash_;
        u.scoreless = scoreless_;
        u.passes = passes_;
        u.drawn = 0;
        const int me = stm_, op = 1 - stm_;
        const int score = m.kind == movegen::PLAY ? m.score : 0;
        hash_ ^= counters_hash();
        if (m.kind == movegen::PLAY) {
            const int dr = m.across ? 0 : 1, dc = m.across ? 1 : 0;
            int used = 0;
            int placed[movegen::MAX_DIM];
            for (int i = 0; i < m.len; ++i) {
                const uint8_t t = m.word[i];
                if (!t) continue;
                const int sq = (m.row + dr * i) * c_.cols + m.col + dc * i;
                board_[sq] = t;
                hash_ ^= square_key(sq, t);
                remove_tile(me, (t & BLANK_BIT) ? 0 : t);
                placed[used++] = sq;
            }
            on_board_ += used;
            if (saved_.size() <= ply) saved_.resize(ply + 1);
            saved_[ply] = checks_;
            movegen::update_cross_checks(c_, board_.data(), placed, used, checks_);
            if (bag_pos_ < bag_n_) {
                hash_ ^= bag_hash();
                while (u.drawn < used && bag_pos_ < bag_n_) {
                    add_tile(me, bag_[bag_pos_++]);
                    ++u.drawn;
                }
                hash_ ^= bag_hash();
            }
            if (score == 0 && sh_.rules.zero_point_play_is_scoreless) {
                ++scoreless_;
            } else {
                scoreless_ = 0;
            }
            passes_ = 0;
        } else {
            ++scoreless_;
            ++passes_;
        }
        hash_ ^= counters_hash() ^ zkey(TO_MOVE, 1);
        stm_ = op;
        ended = false;
        if (m.kind == movegen::PLAY && count_[me] == 0 && bag_pos_ == bag_n_) {
            ended = true;  // R6.1, R6.4: going out gains twice the opponent's rack in spread
            return score + 2 * points_[op];
        }
        const EndRules& r = sh_.rules;
        const bool blocked = !r.zeros_can_end_empty_board && on_board_ == 0;
        if (!blocked && ((r.scoreless_turns_to_end >= 0 && scoreless_ >= r.scoreless_turns_to_end) ||
                         (r.passes_to_end >= 0 && passes_ >= r.passes_to_end))) {
            ended = true;  // R6.2, R6.3: each player loses their own rack
            return score + points_[op] - points_[me];
        }
        return score;
    }

    void unmake(const Move& m, const Undo& u, size_t ply) {
        stm_ = 1 - stm_;
        const int me = stm_;
        if (m.kind == movegen::PLAY) {
            for (int k = 0; k < u.drawn; ++k) remove_tile(me, bag_[--bag_pos_]);
            const int dr = m.across ? 0 : 1, dc = m.across ? 1 : 0;
            for (int i = 0; i < m.len; ++i) {
                const uint8_t t = m.word[i];
                if (!t) continue;
                board_[(m.row + dr * i) * c_.cols + m.col + dc * i] = 0;
                add_tile(me, (t & BLANK_BIT) ? 0 : t);
                --on_board_;
            }
            std::swap(checks_, saved_[ply]);
        }
        scoreless_ = u.scoreless;
        passes_ = u.passes;
        hash_ = u.hash;
    }

    void generate(std::vector<Move>& out) {
        for (int t = 0; t <= nletters_; ++t) rack_vec_[t] = rack_[stm_][t];
        movegen::Request req;
        // with the bag empty the generator orders by endgame equity: going out first, then
        // score less twice the points kept (the static player's endgame rule); on 23 self-play
        // endgames, ordering by score alone made the proofs 6x slower
        req.endgame_opp_points = bag_pos_ == bag_n_ ? points_[1 - stm_] : -1;
        req.cross = &checks_;
        out = movegen::generate(c_, board_.data(), rack_vec_, req);
    }

    bool should_stop() {
        if (stopped_) return true;
        if (sh_.stop.load(std::memory_order_relaxed) ||
            (sh_.timed && Clock::now() >= sh_.deadline)) {
            sh_.stop.store(true, std::memory_order_relaxed);
            stopped_ = true;
        }
        return stopped_;
    }

    void sort_root() {
        std::vector<size_t> order(root_.size());
        for (size_t i = 0; i < order.size(); ++i) order[i] = i;
        std::stable_sort(order.begin(), order.end(),
                         [this](size_t a, size_t b) { return root_value_[a] > root_value_[b]; });
        std::vector<Move> moves;
        std::vector<int> values;
        for (size_t i : order) {
            moves.push_back(root_[i]);
            values.push_back(root_value_[i]);
        }
        root_.swap(moves);
        root_value_.swap(values);
    }

    // Negamax: the spread change to the end of the game for the side to move, within
    // (alpha, beta) (fail-soft: a bound outside it). `proven` says whether the result holds to
    // the end of the game (no line was cut at the depth horizon).
    int search(int depth, int alpha, int beta, size_t ply, bool pv_node, bool& proven) {
        if (pv_.size() <= ply + 1) pv_.resize(ply + 2);
        pv_[ply].clear();
        if (should_stop()) return 0;
        if (depth <= 0) {
            proven = false;
            return estimate();
        }
        uint32_t table_move = 0;
        // a root restricted to one candidate is not its position's value: no table entry
        const bool use_table = sh_.table != nullptr && !(ply == 0 && sh_.opt.only);
        if (use_table) {
            ++probes_;
            uint64_t data;
            if (sh_.table->probe(hash_, data)) {
                ++hits_;
                table_move = entry_move(data);
                const int d = entry_depth(data);
                if (d == PROVEN || d >= depth) {
                    const int v = entry_value(data);
                    const Bound b = entry_bound(data);
                    // a PV node searches on, so the principal variation stays whole
                    if ((b == EXACT && !pv_node) || (b == LOWER && v >= beta) ||
                        (b == UPPER && v <= alpha)) {
                        proven = d == PROVEN;
                        return v;
                    }
                }
            }
        }
        std::vector<Move>* moves;
        std::vector<int>* root_values = nullptr;
        if (ply == 0) {
            moves = &root_;
            root_values = &root_value_;
        } else {
            if (lists_.size() <= ply) lists_.resize(ply + 1);
            moves = &lists_[ply];
            generate(*moves);
            if (table_move != 0) {
                for (size_t i = 1; i < moves->size(); ++i) {
                    if (fingerprint((*moves)[i]) == table_move) {
                        std::rotate(moves->begin(), moves->begin() + i, moves->begin() + i + 1);
                        break;
                    }
                }
            }
        }
        const int alpha0 = alpha;
        int best = -INF;
        size_t best_index = 0;
        bool all_proven = true;
        for (size_t i = 0; i < moves->size(); ++i) {
            const Move m = (*moves)[i];  // a copy: deeper plies may reuse the list's storage
            Undo u;
            bool ended = false;
            const int sc = make(m, u, ended, ply);
            ++nodes_;
            int v;
            bool child_proven = true;
            if (ended) {
                v = sc;
            } else if (i == 0 || !sh_.pvs) {
                v = sc - search(depth - 1, sc - beta, sc - alpha, ply + 1, pv_node, child_proven);
            } else {
                v = sc - search(depth - 1, sc - alpha - 1, sc - alpha, ply + 1, false, child_proven);
                if (v > alpha && v < beta && !stopped_) {
                    child_proven = true;
                    v = sc - search(depth - 1, sc - beta, sc - alpha, ply + 1, true, child_proven);
                }
            }
            unmake(m, u, ply);
            if (stopped_) return 0;
            all_proven = all_proven && child_proven;
            if (root_values != nullptr) (*root_values)[i] = v;
            if (v > best) {
                best = v;
                best_index = i;
                std::vector<Move>& line = pv_[ply];
                line.clear();
                line.push_back(m);
                if (!ended) line.insert(line.end(), pv_[ply + 1].begin(), pv_[ply + 1].end());
            }
            if (v > alpha) alpha = v;
            if (alpha >= beta) break;
        }
        proven = all_proven;
        if (use_table) {
            const Bound b = best <= alpha0 ? UPPER : best >= beta ? LOWER : EXACT;
            sh_.table->store(hash_, pack(best, b, proven ? PROVEN : depth,
                                         fingerprint((*moves)[best_index])));
        }
        return best;
    }
};

}  // namespace

// -- the table -------------------------------------------------------------------------------------

Table::Table(size_t entries) {
    size_t n = 2;
    while (n < entries) n <<= 1;
    size_ = n;
    mask_ = n / 2 - 1;  // buckets of two entries
    words_.reset(new std::atomic<uint64_t>[2 * n]);
    clear();
}

void Table::clear() {
    for (size_t i = 0; i < 2 * size_; ++i) words_[i].store(0, std::memory_order_relaxed);
}

bool Table::probe(uint64_t key, uint64_t& data) const {
    const size_t b = 4 * (key & mask_);
    for (size_t i = b; i < b + 4; i += 2) {
        const uint64_t check = words_[i].load(std::memory_order_relaxed);
        const uint64_t d = words_[i + 1].load(std::memory_order_relaxed);
        if ((check ^ d) == key && d != 0) {
            data = d;
            return true;
        }
    }
    return false;
}

// The first entry of a bucket keeps the deepest result (a proven one above all), the second
// the latest: deep work survives, and shallow work still has a place.
void Table::store(uint64_t key, uint64_t data) {
    const size_t b = 4 * (key & mask_);
    const uint64_t old = words_[b + 1].load(std::memory_order_relaxed);
    const size_t i = old == 0 || entry_depth(data) >= entry_depth(old) ? b : b + 2;
    words_[i + 1].store(data, std::memory_order_relaxed);
    words_[i].store(key ^ data, std::memory_order_relaxed);
}

// -- the solver ------------------------------------------------------------------------------------

Solver::Solver(const movegen::Config& cfg, EndRules rules, size_t table_entries)
    : cfg_(cfg), rules_(rules), table_(table_entries) {
    if (rules_.scoreless_turns_to_end < 0 && rules_.passes_to_end < 0) {
        throw std::invalid_argument(
            "these rules end a game only when a player goes out: an endgame of passes "
            "would never end");
    }
}

Result Solver::solve(const State& state, const Options& options) {
    const auto start = Clock::now();
    const int n = cfg_.letters() + 1;
    if (static_cast<int>(state.board.size()) != cfg_.rows * cfg_.cols) {
        throw std::invalid_argument("the board has the wrong number of squares");
    }
    if (state.racks.size() != 2) throw std::invalid_argument("an endgame needs two racks");
    int held[2] = {0, 0};
    for (int p = 0; p < 2; ++p) {
        if (static_cast<int>(state.racks[p].size()) != n) {
            throw std::invalid_argument("rack counts need one entry per tile id");
        }
        for (int k : state.racks[p]) {
            if (k < 0) throw std::invalid_argument("negative rack count");
            held[p] += k;
        }
        if (held[p] > movegen::MAX_RACK) throw std::invalid_argument("a rack holds too many tiles");
    }
    if (state.bag.size() > static_cast<size_t>(MAX_BAG)) {
        throw std::invalid_argument("the searched bag holds at most " + std::to_string(MAX_BAG) +
                                    " tiles");
    }
    for (uint8_t t : state.bag) {
        if (t >= n) throw std::invalid_argument("a bag tile outside the alphabet");
    }
    if (held[0] == 0) throw std::invalid_argument("the player to move has no tiles");
    if (held[1] == 0 && state.bag.empty()) {
        throw std::invalid_argument("the opponent has no tiles: the game is over");
    }
    if (state.scoreless < 0 || state.passes < 0) {
        throw std::invalid_argument("negative scoreless-turn or pass count");
    }

    Shared sh(cfg_, rules_);
    sh.opt = options;
    sh.table = options.plain ? nullptr : &table_;
    sh.pvs = !options.plain;
    sh.deepen = !options.plain;
    if (options.time_limit > 0) {
        sh.timed = true;
        sh.deadline = start + std::chrono::duration_cast<Clock::duration>(
                                  std::chrono::duration<double>(options.time_limit));
    }
    {
        movegen::Request req;
        std::vector<int> rack(state.racks[0]);
        req.endgame_opp_points = state.bag.empty() ? [&] {
            int pts = 0;
            for (int t = 1; t < n; ++t) pts += state.racks[1][t] * cfg_.values[t];
            return pts;
        }() : -1;
        sh.root = movegen::generate(cfg_, state.board.data(), rack, req);
        if (options.only) {
            std::vector<Move> kept;
            for (const Move& m : sh.root) {
                if (same_move(m, options.only_move)) kept.push_back(m);
            }
            if (kept.empty()) throw std::invalid_argument("the candidate move is not legal here");
            sh.root.assign(kept.begin(), kept.begin() + 1);
        }
    }

    const int threads = options.plain ? 1 : std::max(1, options.threads);
    std::vector<std::thread> helpers;
    for (int id = 1; id < threads; ++id) {
        helpers.emplace_back([&sh, &state, id] {
            Worker w(sh, state, id);
            w.run(1 + (id % 2));
        });
    }
    {
        Worker main(sh, state, 0);
        main.run(1);
        sh.stop.store(true, std::memory_order_relaxed);
        for (std::thread& t : helpers) t.join();
        if (!sh.have) {
            // not even one ply in the time given: the first move in the generator's order
            sh.value = main.quick_value(sh.root.front());
            sh.line = {sh.root.front()};
            sh.depth = 0;
            sh.proven = false;
        }
    }

    Result r;
    r.value = sh.value;
    r.line = sh.line;
    r.proven = sh.proven;
    r.depth = sh.proven && options.plain ? static_cast<int>(sh.line.size()) : sh.depth;
    r.nodes = sh.nodes.load();
    r.tt_probes = sh.probes.load();
    r.tt_hits = sh.hits.load();
    r.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return r;
}

}  // namespace tessera::endgame

// -- Python binding ------------------------------------------------------------------------------

namespace {

using tessera::endgame::EndRules;
using tessera::endgame::Options;
using tessera::endgame::Result;
using tessera::endgame::Solver;
using tessera::endgame::State;
using tessera::movegen::Move;

py::tuple move_tuple(const Move& m) {
    py::tuple w(m.len);
    for (int k = 0; k < m.len; ++k) w[k] = py::int_(m.word[k]);
    return py::make_tuple(static_cast<int>(m.kind), static_cast<int>(m.row),
                          static_cast<int>(m.col), m.across != 0, w, m.score,
                          static_cast<double>(m.score));
}

EndRules end_rules(const py::dict& rules) {
    auto get = [&](const char* k, int d) { return rules.contains(k) ? rules[k].cast<int>() : d; };
    EndRules r;
    r.scoreless_turns_to_end = get("scoreless_turns_to_end", 6);
    r.passes_to_end = get("passes_to_end", -1);
    r.zero_point_play_is_scoreless = get("zero_point_play_is_scoreless", 0) != 0;
    r.zeros_can_end_empty_board = get("zeros_can_end_empty_board", 1) != 0;
    return r;
}

class EndgameSolver {
  public:
    // `generator` is a tessera._core.MoveGenerator (its leaves are not used); `rules` the
    // ending rules as tessera.engine.native.rules_dict gives them; the table takes `table_mb`.
    EndgameSolver(const py::object& generator, const py::dict& rules, int table_mb)
        : keep_(generator),
          gen_(&generator.cast<const tessera::movegen::Generator&>()),
          solver_(gen_->config(), end_rules(rules), table_entries(table_mb)) {}

    py::dict solve(const py::bytes& cells, const std::vector<int>& rack, const std::vector<int>& other,
                   const std::vector<int>& bag, int scoreless, int passes, double time_limit,
                   int threads, int max_depth, bool plain, bool clear, const py::object& only) {
        const tessera::movegen::Config& cfg = gen_->config();
        State st;
        const std::string board = cells;
        st.board.assign(board.begin(), board.end());
        const int n = cfg.letters();
        for (uint8_t t : st.board) {
            if (t != 0 && ((t & 0x7F) < 1 || (t & 0x7F) > n)) {
                throw py::value_error("tile " + std::to_string(t) + " on the board is not a letter");
            }
        }
        st.racks = {rack, other};
        for (int t : bag) {
            if (t < 0 || t > n) throw py::value_error("bag tile " + std::to_string(t) + " out of range");
            st.bag.push_back(static_cast<uint8_t>(t));
        }
        st.scoreless = scoreless;
        st.passes = passes;
        if (threads < 1 || threads > 256) throw py::value_error("threads must be 1..256");
        if (max_depth < 0) throw py::value_error("max_depth must be >= 0 (0: no limit)");
        if (!(time_limit >= 0)) throw py::value_error("time_limit must be >= 0 (0: none)");
        Options opt;
        opt.time_limit = time_limit;
        opt.threads = threads;
        opt.max_depth = max_depth;
        opt.plain = plain;
        if (!only.is_none()) {
            const py::tuple t = only.cast<py::tuple>();
            if (t.size() != 5) throw py::value_error("only: (kind, row, col, across, tiles)");
            Move& m = opt.only_move;
            opt.only = true;
            m.kind = static_cast<uint8_t>(t[0].cast<int>());
            m.row = static_cast<uint8_t>(t[1].cast<int>());
            m.col = static_cast<uint8_t>(t[2].cast<int>());
            m.across = t[3].cast<bool>() ? 1 : 0;
            const std::vector<int> word = t[4].cast<std::vector<int>>();
            if (word.size() > static_cast<size_t>(tessera::movegen::MAX_DIM)) {
                throw py::value_error("only: the word is longer than a board line");
            }
            m.len = static_cast<uint8_t>(word.size());
            for (size_t i = 0; i < word.size(); ++i) m.word[i] = static_cast<uint8_t>(word[i]);
        }
        Result r;
        {
            py::gil_scoped_release release;
            if (clear) solver_.clear_table();
            r = solver_.solve(st, opt);
        }
        py::list line;
        for (const Move& m : r.line) line.append(move_tuple(m));
        py::dict out;
        out["value"] = r.value;
        out["line"] = line;
        out["proven"] = r.proven;
        out["depth"] = r.depth;
        out["nodes"] = r.nodes;
        out["seconds"] = r.seconds;
        out["tt_probes"] = r.tt_probes;
        out["tt_hits"] = r.tt_hits;
        return out;
    }

    void clear_table() {
        py::gil_scoped_release release;
        solver_.clear_table();
    }

  private:
    static size_t table_entries(int mb) {
        if (mb < 1 || mb > 16384) throw py::value_error("the table takes 1..16384 MB");
        return static_cast<size_t>(mb) * (1u << 20) / 16;
    }

    py::object keep_;  // the generator's Python object, owner of the config
    const tessera::movegen::Generator* gen_;
    Solver solver_;
};

}  // namespace

void register_endgame(py::module_& m) {
    py::class_<EndgameSolver>(m, "EndgameSolver",
                              "Exact endgame search for one lexicon and rules (see endgame.hpp).")
        .def(py::init<const py::object&, const py::dict&, int>(), py::arg("generator"),
             py::arg("rules"), py::arg("table_mb") = 32)
        .def("solve", &EndgameSolver::solve, py::arg("cells"), py::arg("rack"), py::arg("other"),
             py::arg("bag"), py::arg("scoreless"), py::arg("passes"), py::arg("time_limit") = 0.0,
             py::arg("threads") = 1, py::arg("max_depth") = 0, py::arg("plain") = false,
             py::arg("clear") = false, py::arg("only") = py::none(),
             "Search a position (racks as counts per tile id, the side to move first; bag tiles "
             "in draw order). Returns value, line, proven, depth, nodes, seconds, tt_probes, "
             "tt_hits.")
        .def("clear_table", &EndgameSolver::clear_table,
             "Empty the transposition table (searches keep it by default with clear=False).");
}
