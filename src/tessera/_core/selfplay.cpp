// Static-equity move choice and whole self-play games in C++ (the computer players' hot loop).
//
// `StaticEngine` holds one lexicon's KWG (its GADDAG half), a board layout, tile values and
// the few rules the self-play loop needs. `moves()` ranks every play, exchange and pass of a
// position by static equity: score plus the value of the tiles kept (a `LeaveTable`, KLV2),
// or, when the bag is empty, +2x the opponent's rack for going out and -(10 + 2x the tiles
// kept) for not going out. `play_game()` plays a whole game between two static players with
// the bag, racks and random generator state taken from a Python `tessera.game.Game`: tile
// draws use CPython's Mersenne Twister and `randrange` exactly, so the game is the one the
// Python `Game` produces when the same moves are played in it (tests check this).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "kwg.hpp"

namespace py = pybind11;
using namespace tessera;

namespace {

constexpr int MAX_DIM = 32;
constexpr int MAX_TILES = 64;  // tile ids 0..63 (blank bit 0x80 aside)
constexpr uint8_t BLANK_BIT = 0x80;
constexpr int MAX_RACK = 15;

inline int letter_of(int t) { return t & 0x7F; }

std::vector<uint32_t> nodes_from_buffer(const py::buffer& buf) {
    py::buffer_info info = buf.request();
    size_t bytes = static_cast<size_t>(info.size) * static_cast<size_t>(info.itemsize);
    if (bytes % 4 != 0) throw std::invalid_argument("a KWG buffer must hold whole uint32 nodes");
    std::vector<uint32_t> out(bytes / 4);
    std::memcpy(out.data(), info.ptr, bytes);
    return out;
}

// ---- CPython's random.Random (MT19937) and randrange ---------------------------------------

struct PyRandom {
    std::array<uint32_t, 624> mt{};
    int index = 624;

    uint32_t next() {
        static const uint32_t mag01[2] = {0x0u, 0x9908b0dfu};
        uint32_t y;
        if (index >= 624) {
            int kk;
            for (kk = 0; kk < 624 - 397; kk++) {
                y = (mt[kk] & 0x80000000u) | (mt[kk + 1] & 0x7fffffffu);
                mt[kk] = mt[kk + 397] ^ (y >> 1) ^ mag01[y & 1u];
            }
            for (; kk < 623; kk++) {
                y = (mt[kk] & 0x80000000u) | (mt[kk + 1] & 0x7fffffffu);
                mt[kk] = mt[kk + (397 - 624)] ^ (y >> 1) ^ mag01[y & 1u];
            }
            y = (mt[623] & 0x80000000u) | (mt[0] & 0x7fffffffu);
            mt[623] = mt[396] ^ (y >> 1) ^ mag01[y & 1u];
            index = 0;
        }
        y = mt[index++];
        y ^= (y >> 11);
        y ^= (y << 7) & 0x9d2c5680u;
        y ^= (y << 15) & 0xefc60000u;
        y ^= (y >> 18);
        return y;
    }

    // random.randrange(n) for 0 < n < 2**32: rejection sampling on getrandbits(bit_length(n)).
    uint32_t below(uint32_t n) {
        int k = 0;
        for (uint32_t v = n; v; v >>= 1) k++;
        uint32_t r = next() >> (32 - k);
        while (r >= n) r = next() >> (32 - k);
        return r;
    }
};

// ---- leave values (KLV2) ----------------------------------------------------------------------

class LeaveTable {
   public:
    LeaveTable(const py::buffer& nodes, std::vector<float> values)
        : nodes_(nodes_from_buffer(nodes)), values_(std::move(values)) {
        std::string problem = kwg::check({nodes_.data(), nodes_.size()});
        if (!problem.empty()) throw std::invalid_argument("leave table: " + problem);
        counts_.assign(nodes_.size(), 0);
        std::unordered_map<uint32_t, uint32_t> memo;
        uint32_t total = list_count(kwg::dawg_root(nodes_.data()), memo);
        if (total != values_.size())
            throw std::invalid_argument("leave table: " + std::to_string(values_.size()) +
                                        " values for " + std::to_string(total) + " leaves");
    }

    // Value of a leave given as tiles sorted ascending (blank = 0 first); 0 when unlisted.
    float value_sorted(const uint8_t* tiles, int n) const {
        if (n <= 0) return 0.0f;
        const uint32_t* nodes = nodes_.data();
        uint32_t index = 0;
        uint32_t start = kwg::dawg_root(nodes);
        for (int depth = 0; depth < n; depth++) {
            if (start == 0) return 0.0f;
            uint32_t t = tiles[depth];
            uint32_t i = start;
            uint32_t node;
            while (true) {
                node = nodes[i];
                uint32_t nt = kwg::tile(node);
                if (nt == t) break;
                if (nt > t || kwg::is_end(node)) return 0.0f;
                index += counts_[i];
                i++;
            }
            if (depth == n - 1) return kwg::accepts(node) ? values_[index] : 0.0f;
            if (kwg::accepts(node)) index++;
            start = kwg::arc_index(node);
        }
        return 0.0f;
    }

    float value(std::vector<int> tiles) const {
        std::vector<uint8_t> t;
        for (int x : tiles) t.push_back(static_cast<uint8_t>((x & BLANK_BIT) ? 0 : x));
        std::sort(t.begin(), t.end());
        return value_sorted(t.data(), static_cast<int>(t.size()));
    }

    size_t size() const { return values_.size(); }

   private:
    uint32_t list_count(uint32_t start, std::unordered_map<uint32_t, uint32_t>& memo) {
        if (start == 0) return 0;
        auto it = memo.find(start);
        if (it != memo.end()) return it->second;
        uint32_t total = 0;
        for (uint32_t i = start;; i++) {
            uint32_t node = nodes_[i];
            counts_[i] = (kwg::accepts(node) ? 1u : 0u) + list_count(kwg::arc_index(node), memo);
            total += counts_[i];
            if (kwg::is_end(node)) break;
        }
        memo[start] = total;
        return total;
    }

    std::vector<uint32_t> nodes_;
    std::vector<float> values_;
    std::vector<uint32_t> counts_;
};

// ---- moves ------------------------------------------------------------------------------------

enum Kind : int { PLAY = 0, EXCHANGE = 1, PASS = 2 };

struct Cand {
    int kind;
    int row, col;
    bool across;
    std::vector<uint8_t> word;  // play: main word (0 = played through); exchange: tiles given
    int score;
    double equity;
    int tiles_used;
};

// Equal equity: plays before exchanges before the pass; plays across before down, then by
// row, column and tiles. The order moves are found in never matters.
bool tie_before(const Cand& a, const Cand& b) {
    if (a.kind != b.kind) return a.kind < b.kind;
    if (a.across != b.across) return a.across;
    if (a.row != b.row) return a.row < b.row;
    if (a.col != b.col) return a.col < b.col;
    return a.word < b.word;
}

bool better(const Cand& a, const Cand& b) {
    if (a.equity != b.equity) return a.equity > b.equity;
    return tie_before(a, b);
}

struct Rules {
    int rack_size = 7;
    int min_first_play_tiles = 2;
    int min_word_length = 2;
    std::vector<int> bingo;  // by tiles played
    int exchange_min_bag = 7;  // -1: the bag must hold at least the tiles exchanged
    int max_exchanges = -1;    // -1: unlimited
    bool exchange_counts_as_scoreless = true;
    bool exchange_counts_as_pass = false;
    int scoreless_turns_to_end = 6;  // -1: none
    bool zero_point_play_is_scoreless = false;
    bool zeros_can_end_empty_board = true;
    int passes_to_end = -1;  // for two players; -1: none
    bool out_double = true;  // DOUBLE (else BOX)
};

class StaticEngine {
   public:
    StaticEngine(const py::buffer& kwg_nodes, int rows, int cols, std::vector<int> letter_mult,
                 std::vector<int> word_mult, int start_row, int start_col,
                 std::vector<int> values, py::dict rules)
        : nodes_(nodes_from_buffer(kwg_nodes)), rows_(rows), cols_(cols), lm_(std::move(letter_mult)),
          wm_(std::move(word_mult)), start_r_(start_row), start_c_(start_col),
          values_(std::move(values)) {
        if (rows < 1 || cols < 1 || rows > MAX_DIM || cols > MAX_DIM)
            throw std::invalid_argument("board size must be 1..32 squares each way");
        if (static_cast<int>(lm_.size()) != rows * cols || static_cast<int>(wm_.size()) != rows * cols)
            throw std::invalid_argument("premium grids must have rows*cols entries");
        if (values_.empty() || values_.size() > MAX_TILES)
            throw std::invalid_argument("tile values: 1..64 tile ids");
        std::string problem = kwg::check({nodes_.data(), nodes_.size()});
        if (!problem.empty()) throw std::invalid_argument("word graph: " + problem);
        if (kwg::gaddag_root(nodes_.data()) == 0)
            throw std::invalid_argument("the word graph has no GADDAG");
        alpha_ = static_cast<int>(values_.size());
        auto get = [&](const char* k, int d) { return rules.contains(k) ? rules[k].cast<int>() : d; };
        r_.rack_size = get("rack_size", 7);
        r_.min_first_play_tiles = get("min_first_play_tiles", 2);
        r_.min_word_length = get("min_word_length", 2);
        r_.exchange_min_bag = get("exchange_min_bag", 7);
        r_.max_exchanges = get("max_exchanges", -1);
        r_.exchange_counts_as_scoreless = get("exchange_counts_as_scoreless", 1) != 0;
        r_.exchange_counts_as_pass = get("exchange_counts_as_pass", 0) != 0;
        r_.scoreless_turns_to_end = get("scoreless_turns_to_end", 6);
        r_.zero_point_play_is_scoreless = get("zero_point_play_is_scoreless", 0) != 0;
        r_.zeros_can_end_empty_board = get("zeros_can_end_empty_board", 1) != 0;
        r_.passes_to_end = get("passes_to_end", -1);
        r_.out_double = get("out_double", 1) != 0;
        r_.bingo.assign(r_.rack_size + 1, 0);
        if (rules.contains("bingo")) {
            auto b = rules["bingo"].cast<std::vector<std::pair<int, int>>>();
            for (auto [n, pts] : b)
                if (n >= 0 && n <= r_.rack_size) r_.bingo[n] = pts;
        }
    }

    // -- position state ------------------------------------------------------------------------

    struct Position {
        std::vector<uint8_t> board;  // rows*cols
        int counts[MAX_TILES];       // rack counts by tile id
        int bag_count;
        int opp_points;     // tile points of the opponents' racks (used when the bag is empty)
        bool can_exchange;
    };

    // Rank moves of a position; top <= 0 means all.
    std::vector<Cand> rank(const Position& pos, const LeaveTable* leaves, int top) {
        setup(pos, leaves, top);
        add_exchanges_and_pass(pos);
        generate();
        return finish();
    }

    py::list moves_py(std::vector<int> board, std::vector<int> rack, const LeaveTable* leaves,
                      int bag_count, int opp_points, bool can_exchange, int top) {
        Position p = position_from(board, rack, bag_count, opp_points, can_exchange);
        auto ranked = rank(p, leaves, top);
        py::list out;
        for (auto& c : ranked) out.append(cand_tuple(c));
        return out;
    }

    // Play a whole game between two static players (2 players). Returns a dict with the
    // turns and the final state.
    py::dict play_game(std::vector<int> bag, std::vector<uint32_t> rng_state,
                       std::vector<std::vector<int>> racks, int to_move, std::vector<int> scores,
                       std::vector<const LeaveTable*> leaves, int max_turns) {
        if (racks.size() != 2 || scores.size() != 2 || leaves.size() != 2)
            throw std::invalid_argument("the compiled self-play loop plays two-player games");
        if (rng_state.size() != 625) throw std::invalid_argument("rng state: 625 words");
        PyRandom rng;
        for (int i = 0; i < 624; i++) rng.mt[i] = rng_state[i];
        rng.index = static_cast<int>(rng_state[624]);
        std::vector<uint8_t> bagv;
        for (int t : bag) bagv.push_back(static_cast<uint8_t>(t));
        int counts[2][MAX_TILES];
        std::memset(counts, 0, sizeof(counts));
        for (int p = 0; p < 2; p++)
            for (int t : racks[p]) {
                check_tile(t);
                counts[p][t & BLANK_BIT ? 0 : t]++;
            }
        std::vector<uint8_t> board(rows_ * cols_, 0);
        int sc[2] = {scores[0], scores[1]};
        int exchanges[2] = {0, 0};
        int scoreless = 0, passes = 0;
        py::list turns;
        std::string reason = "turn_limit";
        int bingos[2] = {0, 0};
        auto rack_points = [&](int p) {
            int s = 0;
            for (int t = 1; t < alpha_; t++) s += counts[p][t] * values_[t];
            return s;
        };
        auto rack_tuple = [&](int p) {
            py::list l;
            for (int t = 1; t < alpha_; t++)
                for (int k = 0; k < counts[p][t]; k++) l.append(t);
            for (int k = 0; k < counts[p][0]; k++) l.append(0);
            return py::tuple(l);
        };
        auto draw = [&](int p) {
            uint32_t i = rng.below(static_cast<uint32_t>(bagv.size()));
            uint8_t t = bagv[i];
            bagv.erase(bagv.begin() + i);
            counts[p][t]++;
        };
        auto fill = [&](int p) {
            int n = 0;
            for (int t = 0; t < alpha_; t++) n += counts[p][t];
            while (n < r_.rack_size && !bagv.empty()) {
                draw(p);
                n++;
            }
        };
        bool over = false;
        int turn = 0;
        while (!over) {
            if (turn >= max_turns) break;
            turn++;
            int p = to_move;
            int o = 1 - p;
            Position pos;
            pos.board = board;
            std::memcpy(pos.counts, counts[p], sizeof(pos.counts));
            pos.bag_count = static_cast<int>(bagv.size());
            pos.opp_points = rack_points(o);
            int need = r_.exchange_min_bag < 0 ? 1 : std::max(r_.exchange_min_bag, 1);
            pos.can_exchange = pos.bag_count >= need &&
                               (r_.max_exchanges < 0 || exchanges[p] < r_.max_exchanges);
            auto best = rank(pos, leaves[p], 1);
            const Cand& m = best.front();
            py::tuple rack_before = rack_tuple(p);
            int bag_before = pos.bag_count;
            if (m.kind == PLAY) {
                int dr = m.across ? 0 : 1, dc = m.across ? 1 : 0;
                for (size_t i = 0; i < m.word.size(); i++) {
                    uint8_t t = m.word[i];
                    if (!t) continue;
                    board[(m.row + dr * i) * cols_ + m.col + dc * i] = t;
                    counts[p][t & BLANK_BIT ? 0 : t]--;
                }
                sc[p] += m.score;
                if (m.tiles_used == r_.rack_size) bingos[p]++;
                fill(p);
                if (m.score == 0 && r_.zero_point_play_is_scoreless) scoreless++;
                else scoreless = 0;
                passes = 0;
            } else if (m.kind == EXCHANGE) {
                for (uint8_t t : m.word) counts[p][t]--;
                for (size_t i = 0; i < m.word.size(); i++) draw(p);
                for (uint8_t t : m.word) bagv.push_back(t);
                exchanges[p]++;
                if (r_.exchange_counts_as_scoreless) scoreless++;
                passes = r_.exchange_counts_as_pass ? passes + 1 : 0;
            } else {
                scoreless++;
                passes++;
            }
            turns.append(py::make_tuple(p, cand_tuple(m), rack_before, bag_before));
            to_move = o;
            int left = 0;
            for (int t = 0; t < alpha_; t++) left += counts[p][t];
            if (m.kind == PLAY && left == 0 && bagv.empty()) {
                int v = rack_points(o);
                if (r_.out_double) sc[p] += 2 * v;
                else {
                    sc[o] -= v;
                    sc[p] += v;
                }
                reason = "played_out";
                over = true;
                break;
            }
            bool empty_block = !r_.zeros_can_end_empty_board &&
                               std::all_of(board.begin(), board.end(), [](uint8_t t) { return t == 0; });
            bool end_zero = r_.scoreless_turns_to_end >= 0 && scoreless >= r_.scoreless_turns_to_end;
            bool end_pass = r_.passes_to_end >= 0 && passes >= r_.passes_to_end;
            if ((end_zero || end_pass) && !empty_block) {
                sc[0] -= rack_points(0);
                sc[1] -= rack_points(1);
                reason = end_zero ? "scoreless_turns" : "passes";
                over = true;
            }
        }
        py::dict out;
        out["turns"] = turns;
        out["scores"] = py::make_tuple(sc[0], sc[1]);
        out["reason"] = reason;
        out["bingos"] = py::make_tuple(bingos[0], bingos[1]);
        out["over"] = over;
        return out;
    }

   private:
    void check_tile(int t) const {
        int f = (t & BLANK_BIT) ? 0 : t;
        if (f < 0 || f >= alpha_) throw std::invalid_argument("tile id " + std::to_string(t) + " out of range");
    }

    Position position_from(const std::vector<int>& board, const std::vector<int>& rack, int bag_count,
                           int opp_points, bool can_exchange) const {
        if (static_cast<int>(board.size()) != rows_ * cols_)
            throw std::invalid_argument("board must have rows*cols cells");
        Position p;
        p.board.resize(board.size());
        for (size_t i = 0; i < board.size(); i++) {
            int t = board[i];
            if (t) check_tile(t);
            if (t && letter_of(t) == 0) throw std::invalid_argument("a blank on the board needs a letter");
            p.board[i] = static_cast<uint8_t>(t);
        }
        std::memset(p.counts, 0, sizeof(p.counts));
        for (int t : rack) {
            check_tile(t);
            p.counts[(t & BLANK_BIT) ? 0 : t]++;
        }
        p.bag_count = bag_count;
        p.opp_points = opp_points;
        p.can_exchange = can_exchange;
        return p;
    }

    py::tuple cand_tuple(const Cand& c) const {
        py::list w;
        for (uint8_t t : c.word) w.append(static_cast<int>(t));
        return py::make_tuple(c.kind, c.row, c.col, c.across, py::tuple(w), c.score, c.equity);
    }

    // -- per-position setup: cross-checks, anchors, leave values ------------------------------

    void setup(const Position& pos, const LeaveTable* leaves, int top) {
        board_ = pos.board.data();
        std::memcpy(counts_, pos.counts, sizeof(counts_));
        top_ = top;
        cands_.clear();
        best_ = -1;
        rack_n_ = 0;
        for (int t = 0; t < alpha_; t++) rack_n_ += counts_[t];
        board_empty_ = std::all_of(pos.board.begin(), pos.board.end(), [](uint8_t t) { return t == 0; });
        // mixed-radix leave index over the rack's distinct tiles
        int radix = 1;
        distinct_.clear();
        for (int t = 0; t < alpha_; t++) {
            radix_[t] = radix;
            if (counts_[t]) {
                distinct_.push_back(t);
                radix *= counts_[t] + 1;
            }
        }
        full_index_ = radix - 1;
        leave_vals_.assign(radix, 0.0);
        max_leave_.assign(rack_n_ + 1, -1e300);
        rack_vals_.clear();
        rack_mask_ = 0;
        for (int t = 0; t < alpha_; t++)
            for (int k = 0; k < counts_[t]; k++) {
                rack_vals_.push_back(t ? values_[t] : 0);
                if (t) rack_mask_ |= 1ull << t;
            }
        std::sort(rack_vals_.rbegin(), rack_vals_.rend());
        std::vector<uint8_t> kept;
        for (int idx = 0; idx < radix; idx++) {
            kept.clear();
            int points = 0;
            int rem = idx;
            for (int t : distinct_) {
                int c = rem % (counts_[t] + 1);
                rem /= counts_[t] + 1;
                for (int k = 0; k < c; k++) kept.push_back(static_cast<uint8_t>(t));
                points += c * values_[t];
            }
            if (pos.bag_count == 0) {
                leave_vals_[idx] = kept.empty() ? 2.0 * pos.opp_points : -(10.0 + 2.0 * points);
            } else if (leaves) {
                leave_vals_[idx] = leaves->value_sorted(kept.data(), static_cast<int>(kept.size()));
            }
            int used = rack_n_ - static_cast<int>(kept.size());
            max_leave_[used] = std::max(max_leave_[used], leave_vals_[idx]);
        }
        // cross-checks: hmask/hscore for across plays (the vertical word through a square)
        for (int r = 0; r < rows_; r++)
            for (int c = 0; c < cols_; c++) {
                int i = r * cols_ + c;
                anchor_[i] = false;
                if (board_[i]) continue;
                bool adj = (r > 0 && board_[i - cols_]) || (r + 1 < rows_ && board_[i + cols_]) ||
                           (c > 0 && board_[i - 1]) || (c + 1 < cols_ && board_[i + 1]);
                anchor_[i] = adj || (board_empty_ && r == start_r_ && c == start_c_);
                cross(r, c, false, xmask_[0][i], xscore_[0][i]);  // across plays: vertical words
                cross(r, c, true, xmask_[1][i], xscore_[1][i]);   // down plays: horizontal words
            }
    }

    // The letters allowed at empty (r,c) by the perpendicular word (`horizontal`: the word
    // runs across), and the points of its other tiles (-1: no perpendicular word).
    void cross(int r, int c, bool horizontal, uint64_t& mask, int& score) const {
        int dr = horizontal ? 0 : 1, dc = horizontal ? 1 : 0;
        auto at = [&](int rr, int cc) -> int {
            if (rr < 0 || cc < 0 || rr >= rows_ || cc >= cols_) return 0;
            return board_[rr * cols_ + cc];
        };
        int br = r - dr, bc = c - dc;
        while (at(br, bc)) br -= dr, bc -= dc;
        int ar = r + dr, ac = c + dc;
        while (at(ar, ac)) ar += dr, ac += dc;
        int before = (r - br) * dr + (c - bc) * dc - 1;
        int after = (ar - r) * dr + (ac - c) * dc - 1;
        if (before == 0 && after == 0) {
            mask = ~0ull;
            score = -1;
            return;
        }
        score = 0;
        mask = 0;
        const uint32_t* nodes = nodes_.data();
        kwg::View g{nodes, nodes_.size()};
        uint32_t list = kwg::dawg_root(nodes);
        for (int k = before; k >= 1; k--) {
            int t = at(r - dr * k, c - dc * k);
            score += (t & BLANK_BIT) ? 0 : values_[t];
            uint32_t n = kwg::find(g, list, letter_of(t));
            list = n ? kwg::arc_index(nodes[n]) : 0;
            if (!list) break;
        }
        for (int k = 1; k <= after; k++) {
            int t = at(r + dr * k, c + dc * k);
            score += (t & BLANK_BIT) ? 0 : values_[t];
        }
        if (!list) return;
        for (uint32_t i = list;; i++) {
            uint32_t node = nodes[i];
            uint32_t L = kwg::tile(node);
            bool ok = true;
            uint32_t cur = i;
            for (int k = 1; k <= after; k++) {
                uint32_t l2 = kwg::arc_index(nodes[cur]);
                uint32_t n = l2 ? kwg::find(g, l2, letter_of(at(r + dr * k, c + dc * k))) : 0;
                if (!n) {
                    ok = false;
                    break;
                }
                cur = n;
            }
            ok = ok && kwg::accepts(nodes[cur]);
            if (ok && L < 64) mask |= 1ull << L;
            if (kwg::is_end(node)) break;
        }
    }

    // -- generation ------------------------------------------------------------------------------

    // Copy one line (a row for across plays, a column for down plays) into the line arrays.
    void load_line(int dir, int line) {
        across_ = dir == 0;
        len_ = across_ ? cols_ : rows_;
        line_ = line;
        for (int p = 0; p < len_; p++) {
            int i = across_ ? line * cols_ + p : p * cols_ + line;
            sq_[p] = i;
            ltile_[p] = board_[i];
            lanchor_[p] = anchor_[i];
            lmask_[p] = xmask_[dir][i];
            lx_[p] = xscore_[dir][i];
            llm_[p] = lm_[i];
            lwm_[p] = wm_[i];
        }
    }

    // An upper bound on the equity of any play generated from anchor `a` of the loaded line:
    // for every window of squares the play could fill, the rack's best tiles on the best
    // squares (main word and cross-words), the bingo bonus, and the best leave for that many
    // tiles used.
    double anchor_bound(int a, double (*mat)[MAX_RACK + 1] = nullptr) const {
        const double NONE = -1e300;
        if (mat)
            for (int i = 0; i <= MAX_RACK; i++)
                for (int j = 0; j <= MAX_RACK; j++) mat[i][j] = NONE;
        int E = rack_n_;
        if (E == 0) return NONE;
        int left[MAX_DIM], right[MAX_DIM];
        int nl = 0, nr = 0;
        for (int p = a - 1; p >= 0 && nl < E - 1; p--) {
            if (ltile_[p]) continue;
            if (lanchor_[p]) break;
            left[nl++] = p;
        }
        for (int p = a + 1; p < len_ && nr < E - 1; p++)
            if (!ltile_[p]) right[nr++] = p;
        uint64_t avail = counts_[0] ? ~0ull : rack_mask_;
        double best = NONE;
        for (int L = 0; L <= nl; L++) {
            for (int R = 0; R <= nr && 1 + L + R <= E; R++) {
                int s = L ? left[L - 1] : a;
                while (s > 0 && ltile_[s - 1]) s--;
                int e = R ? right[R - 1] : a;
                while (e + 1 < len_ && ltile_[e + 1]) e++;
                int wmul = 1, board_sum = 0, xconst = 0, k = 0;
                bool ok = true;
                for (int p = s; p <= e; p++) {
                    uint8_t t = ltile_[p];
                    if (t) {
                        board_sum += (t & BLANK_BIT) ? 0 : values_[t];
                    } else {
                        if (!(lmask_[p] & avail)) {
                            ok = false;
                            break;
                        }
                        wmul *= lwm_[p];
                    }
                }
                if (!ok) continue;
                int coef[MAX_DIM];
                for (int p = s; p <= e; p++) {
                    if (ltile_[p]) continue;
                    int c = llm_[p] * (wmul + (lx_[p] >= 0 ? lwm_[p] : 0));
                    if (lx_[p] >= 0) xconst += lx_[p] * lwm_[p];
                    int j = k++;
                    while (j > 0 && coef[j - 1] < c) {
                        coef[j] = coef[j - 1];
                        j--;
                    }
                    coef[j] = c;
                }
                int score = board_sum * wmul + xconst + (k <= r_.rack_size ? r_.bingo[k] : 0);
                for (int i = 0; i < k; i++) score += rack_vals_[i] * coef[i];
                double bound = score + max_leave_[k];
                if (mat) mat[L][R] = bound;
                if (bound > best) best = bound;
            }
        }
        return best;
    }

    void generate() {
        struct Anchor {
            int dir, line, pos;
            double bound;
        };
        std::vector<Anchor> anchors;
        for (int dir = 0; dir < 2; dir++) {
            int nlines = dir == 0 ? rows_ : cols_;
            for (int line = 0; line < nlines; line++) {
                bool any = false;
                for (int p = 0, n = dir == 0 ? cols_ : rows_; p < n && !any; p++)
                    any = anchor_[dir == 0 ? line * cols_ + p : p * cols_ + line];
                if (!any) continue;
                load_line(dir, line);
                for (int a = 0; a < len_; a++)
                    if (lanchor_[a]) anchors.push_back({dir, line, a, top_ == 1 ? anchor_bound(a) : 0.0});
            }
        }
        if (top_ == 1)
            std::stable_sort(anchors.begin(), anchors.end(),
                             [](const Anchor& x, const Anchor& y) { return x.bound > y.bound; });
        int loaded_dir = -1, loaded_line = -1;
        for (const Anchor& an : anchors) {
            if (top_ == 1 && best_ >= 0 && an.bound < cands_[best_].equity) break;
            if (an.dir != loaded_dir || an.line != loaded_line) {
                load_line(an.dir, an.line);
                loaded_dir = an.dir;
                loaded_line = an.line;
            }
            anchor_pos_ = an.pos;
            if (top_ == 1) {
                anchor_bound(an.pos, bmat_);
                for (int L = MAX_RACK; L >= 0; L--) {
                    double row = -1e300;
                    for (int R = MAX_RACK; R >= 0; R--) {
                        row = std::max(row, bmat_[L][R]);
                        can_r_[L][R] = row;
                    }
                    can_l_[L] = std::max(row, L < MAX_RACK ? can_l_[L + 1] : -1e300);
                }
            }
            gen(an.pos, kwg::gaddag_root(nodes_.data()), true, 0, 0, 1, 0, 0, full_index_, 0);
        }
    }

    void gen(int pos, uint32_t list, bool left, int start, int lsum, int wmul, int xsum, int n,
             int leave, int nl) {
        if (!list) return;
        const uint32_t* nodes = nodes_.data();
        uint8_t bt = ltile_[pos];
        if (bt) {
            kwg::View g{nodes, nodes_.size()};
            uint32_t node = kwg::find(g, list, letter_of(bt));
            if (node)
                go_on(pos, node, left, start, lsum + ((bt & BLANK_BIT) ? 0 : values_[bt]), wmul, xsum, n,
                      leave, nl);
            return;
        }
        if (n >= rack_n_) return;
        if (top_ == 1 && best_ >= 0) {
            // no play with this many tiles on this side can reach the best equity found
            double bar = cands_[best_].equity;
            if (left ? can_l_[n] < bar : can_r_[nl - 1][n - nl + 1] < bar) return;
        }
        uint64_t mask = lmask_[pos];
        int lm = llm_[pos], wm = lwm_[pos], xs = lx_[pos];
        for (uint32_t i = list;; i++) {
            uint32_t node = nodes[i];
            uint32_t t = kwg::tile(node);
            if (t != 0 && t < 64 && ((mask >> t) & 1ull)) {
                if (counts_[t]) {
                    counts_[t]--;
                    placed_[pos] = static_cast<uint8_t>(t);
                    int lv = values_[t] * lm;
                    int x = xs >= 0 ? (xs + lv) * wm : 0;
                    go_on(pos, i, left, start, lsum + lv, wmul * wm, xsum + x, n + 1, leave - radix_[t], nl);
                    counts_[t]++;
                }
                if (counts_[0]) {
                    counts_[0]--;
                    placed_[pos] = static_cast<uint8_t>(t | BLANK_BIT);
                    int x = xs >= 0 ? xs * wm : 0;
                    go_on(pos, i, left, start, lsum, wmul * wm, xsum + x, n + 1, leave - radix_[0], nl);
                    counts_[0]++;
                }
            }
            if (kwg::is_end(node)) break;
        }
    }

    void go_on(int pos, uint32_t node_index, bool left, int start, int lsum, int wmul, int xsum, int n,
               int leave, int nl) {
        const uint32_t* nodes = nodes_.data();
        uint32_t node = nodes[node_index];
        uint32_t arc = kwg::arc_index(node);
        if (left) {
            bool left_free = pos == 0 || !ltile_[pos - 1];
            int a = anchor_pos_;
            if (kwg::accepts(node) && left_free && (a + 1 >= len_ || !ltile_[a + 1]))
                record(pos, a, lsum, wmul, xsum, n, leave);
            if (!arc) return;
            if (pos > 0 && (ltile_[pos - 1] || !lanchor_[pos - 1]))
                gen(pos - 1, arc, true, 0, lsum, wmul, xsum, n, leave, nl);
            if (left_free && a + 1 < len_) {
                kwg::View g{nodes, nodes_.size()};
                uint32_t sep = kwg::find(g, arc, kwg::SEPARATOR);
                if (sep) gen(a + 1, kwg::arc_index(nodes[sep]), false, pos, lsum, wmul, xsum, n, leave, n);
            }
        } else {
            if (kwg::accepts(node) && (pos + 1 >= len_ || !ltile_[pos + 1]))
                record(start, pos, lsum, wmul, xsum, n, leave);
            if (arc && pos + 1 < len_) gen(pos + 1, arc, false, start, lsum, wmul, xsum, n, leave, nl);
        }
    }

    void record(int start, int end, int lsum, int wmul, int xsum, int n, int leave) {
        if (n == 0) return;
        if (end - start + 1 < r_.min_word_length) return;
        if (board_empty_ && n < r_.min_first_play_tiles) return;
        if (!across_ && n == 1) {
            // a single tile with an across neighbour is the across play found in that pass
            for (int p = start; p <= end; p++)
                if (!ltile_[p]) {
                    int i = sq_[p];
                    int c = i % cols_;
                    if ((c > 0 && board_[i - 1]) || (c + 1 < cols_ && board_[i + 1])) return;
                }
        }
        int score = lsum * wmul + xsum + (n <= r_.rack_size ? r_.bingo[n] : 0);
        double eq = score + leave_vals_[leave];
        if (!admit(eq)) return;
        Cand c;
        c.kind = PLAY;
        int i0 = sq_[start];
        c.row = i0 / cols_;
        c.col = i0 % cols_;
        c.across = across_;
        c.word.resize(end - start + 1);
        for (int p = start; p <= end; p++) c.word[p - start] = ltile_[p] ? 0 : placed_[p];
        c.score = score;
        c.equity = eq;
        c.tiles_used = n;
        push(std::move(c));
    }

    // Whether a candidate of this equity can still enter the ranking.
    bool admit(double eq) const {
        if (top_ == 1) return best_ < 0 || eq >= cands_[best_].equity;
        return true;
    }

    void push(Cand&& c) {
        if (top_ == 1) {
            if (cands_.empty()) cands_.push_back(std::move(c));
            else if (better(c, cands_[0])) cands_[0] = std::move(c);
            best_ = 0;
            return;
        }
        cands_.push_back(std::move(c));
        if (top_ > 0 && cands_.size() > static_cast<size_t>(4 * top_ + 64)) prune();
    }

    void prune() {
        std::sort(cands_.begin(), cands_.end(), better);
        if (top_ > 0 && cands_.size() > static_cast<size_t>(top_)) cands_.resize(top_);
    }

    void add_exchanges_and_pass(const Position& pos) {
        if (pos.can_exchange) {
            for (int keep = 0; keep < full_index_; keep++) {
                int rem = keep;
                std::vector<uint8_t> given;
                for (int t : distinct_) {
                    int c = rem % (counts_[t] + 1);
                    rem /= counts_[t] + 1;
                    for (int k = c; k < counts_[t]; k++) given.push_back(static_cast<uint8_t>(t));
                }
                int n = static_cast<int>(given.size());
                int need = r_.exchange_min_bag < 0 ? n : std::max(r_.exchange_min_bag, n);
                if (pos.bag_count < need) continue;
                double eq = leave_vals_[keep];
                if (!admit(eq)) continue;
                Cand c{EXCHANGE, 0, 0, true, given, 0, eq, 0};
                push(std::move(c));
            }
        }
        double eq = leave_vals_[full_index_];
        if (admit(eq)) {
            Cand c{PASS, 0, 0, true, {}, 0, eq, 0};
            push(std::move(c));
        }
    }

    std::vector<Cand> finish() {
        prune();
        return std::move(cands_);
    }

    std::vector<uint32_t> nodes_;
    int rows_, cols_;
    std::vector<int> lm_, wm_;
    int start_r_, start_c_;
    std::vector<int> values_;
    int alpha_;
    Rules r_;

    // per-position state
    const uint8_t* board_ = nullptr;
    bool board_empty_ = false;
    int counts_[MAX_TILES];
    int rack_n_ = 0;
    int radix_[MAX_TILES];
    std::vector<int> distinct_;
    int full_index_ = 0;
    std::vector<double> leave_vals_;
    std::vector<double> max_leave_;  // by tiles used
    std::vector<int> rack_vals_;     // tile values on the rack, highest first
    uint64_t rack_mask_ = 0;
    bool anchor_[MAX_DIM * MAX_DIM];
    uint64_t xmask_[2][MAX_DIM * MAX_DIM];
    int xscore_[2][MAX_DIM * MAX_DIM];
    int top_ = 1;
    std::vector<Cand> cands_;
    int best_ = -1;

    // per-line state
    bool across_ = true;
    int line_ = 0, len_ = 0, anchor_pos_ = 0;
    int sq_[MAX_DIM];
    uint8_t ltile_[MAX_DIM];
    bool lanchor_[MAX_DIM];
    uint64_t lmask_[MAX_DIM];
    int lx_[MAX_DIM];
    int llm_[MAX_DIM], lwm_[MAX_DIM];
    uint8_t placed_[MAX_DIM];
    double bmat_[MAX_RACK + 1][MAX_RACK + 1];  // bound by tiles left/right of the anchor
    double can_l_[MAX_RACK + 1];               // best bound with at least L tiles on the left
    double can_r_[MAX_RACK + 1][MAX_RACK + 1]; // best bound with L left and at least R right
};

}  // namespace

void register_selfplay(py::module_& m) {
    py::class_<LeaveTable>(m, "LeaveTable", "KLV2 leave values for the compiled static player.")
        .def(py::init<const py::buffer&, std::vector<float>>(), py::arg("nodes"), py::arg("values"))
        .def("value", &LeaveTable::value, py::arg("tiles"))
        .def("__len__", &LeaveTable::size);
    py::class_<StaticEngine>(m, "StaticEngine",
                             "Static-equity move ranking and whole self-play games (two players).")
        .def(py::init<const py::buffer&, int, int, std::vector<int>, std::vector<int>, int, int,
                      std::vector<int>, py::dict>(),
             py::arg("kwg"), py::arg("rows"), py::arg("cols"), py::arg("letter_mult"),
             py::arg("word_mult"), py::arg("start_row"), py::arg("start_col"), py::arg("values"),
             py::arg("rules"))
        .def("moves", &StaticEngine::moves_py, py::arg("board"), py::arg("rack"), py::arg("leaves"),
             py::arg("bag_count"), py::arg("opp_points"), py::arg("can_exchange"), py::arg("top"))
        .def("play_game", &StaticEngine::play_game, py::arg("bag"), py::arg("rng_state"),
             py::arg("racks"), py::arg("to_move"), py::arg("scores"), py::arg("leaves"),
             py::arg("max_turns") = 1000);
}
