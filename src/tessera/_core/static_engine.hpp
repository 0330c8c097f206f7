// The static engine's parts shared by the compiled loops: the self-play games (selfplay.cpp),
// the Monte Carlo simulation and the inference (sim.cpp).
//
// * `PyRandom` — CPython's random.Random (MT19937, seeding, randrange, random, shuffle)
//   exactly, so compiled draws are the ones Python code makes with the same seed.
// * `GameRules` — the rules the loops need, as plain numbers (tessera.engine.native.rules_dict).
// * `StaticEngine::rank` — the one static-equity ranking of a position (the move generator with
//   leave values, exchanges as the bag allows, the endgame adjustment with the bag empty).
// * `Duel` — a two-player game state and how a move changes it (draws, exchanges, scoreless
//   turns, the game's end and its rack adjustments): one implementation of those rules for
//   every compiled loop, tested against the Python `Game`.
#pragma once

#include <pybind11/pybind11.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "movegen.hpp"
#include "movegen_binding.hpp"

namespace tessera::engine {

namespace py = pybind11;

constexpr int MAX_TILES = movegen::MAX_LETTERS + 1;  // tile ids 0..63 (blank bit 0x80 aside)
constexpr uint8_t BLANK_BIT = 0x80;

inline int face(int t) { return (t & BLANK_BIT) ? 0 : t; }

// ---- CPython's random.Random (MT19937) --------------------------------------------------------

struct PyRandom {
    std::array<uint32_t, 624> mt{};
    int index = 624;

    // random.Random(n) for 0 <= n < 2**64: init_by_array over n's 32-bit words, low first.
    void seed(uint64_t n) {
        mt[0] = 19650218u;
        for (int i = 1; i < 624; i++)
            mt[i] = 1812433253u * (mt[i - 1] ^ (mt[i - 1] >> 30)) + static_cast<uint32_t>(i);
        uint32_t key[2] = {static_cast<uint32_t>(n), static_cast<uint32_t>(n >> 32)};
        const int key_len = key[1] ? 2 : 1;
        int i = 1, j = 0;
        for (int k = 624; k; k--) {
            mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525u)) + key[j] +
                    static_cast<uint32_t>(j);
            i++;
            j++;
            if (i >= 624) {
                mt[0] = mt[623];
                i = 1;
            }
            if (j >= key_len) j = 0;
        }
        for (int k = 623; k; k--) {
            mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941u)) -
                    static_cast<uint32_t>(i);
            i++;
            if (i >= 624) {
                mt[0] = mt[623];
                i = 1;
            }
        }
        mt[0] = 0x80000000u;
        index = 624;
    }

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

    // random.shuffle(x): Fisher-Yates from the end, j = randrange(i + 1).
    void shuffle(std::vector<uint8_t>& x) {
        for (size_t i = x.size(); i-- > 1;) {
            const uint32_t j = below(static_cast<uint32_t>(i + 1));
            std::swap(x[i], x[j]);
        }
    }
};

// ---- rules, leaves, positions -----------------------------------------------------------------

struct GameRules {
    int rack_size = 7;
    int exchange_min_bag = 7;  // -1: the bag must hold at least the tiles exchanged
    int max_exchanges = -1;    // -1: unlimited
    bool exchange_counts_as_scoreless = true;
    bool exchange_counts_as_pass = false;
    int scoreless_turns_to_end = 6;  // -1: none
    bool zero_point_play_is_scoreless = false;
    bool zeros_can_end_empty_board = true;
    int passes_to_end = -1;  // for two players; -1: none
    bool out_double = true;  // DOUBLE (else BOX)
    int finish_target = -1;  // R8.3: a play reaching it ends the game (a win); -1: none

    // Tiles the bag must hold for some exchange to be legal.
    int exchange_need() const { return exchange_min_bag < 0 ? 1 : std::max(exchange_min_bag, 1); }
};

GameRules rules_from_dict(const py::dict& rules);  // selfplay.cpp

class LeaveTable {
   public:
    LeaveTable(const py::buffer& nodes, const py::buffer& values)
        : table_(movegen::leaves_from_buffers(nodes, values)) {}

    float value(const std::vector<int>& tiles) const;  // selfplay.cpp
    double value_of_counts(const int* counts) const {
        return movegen::leave_value(table_.get(), counts, MAX_TILES);
    }
    size_t size() const { return table_->values.size(); }
    const movegen::Leaves* table() const { return table_.get(); }

   private:
    std::shared_ptr<const movegen::Leaves> table_;
};

// One player's position as the static player sees it.
struct Position {
    const uint8_t* board;     // rows*cols tile ids
    int counts[MAX_TILES];    // rack counts by tile id
    int bag_count;
    int opp_points;     // tile points of the opponents' racks (used when the bag is empty)
    bool can_exchange;  // the exchange limit allows one (the bag size is checked by rank)
};

using movegen::Move;

struct Duel;
struct RandomBag;

// ---- the static engine ------------------------------------------------------------------------

class StaticEngine {
   public:
    // `generator` is the tessera._core.MoveGenerator of the lexicon and rules (no leaves of
    // its own: each player brings a LeaveTable); it is kept alive as long as the engine.
    StaticEngine(const py::object& generator, py::dict rules);

    // The moves of a position ranked by static equity; top <= 0 means all. `cross`: the
    // board's cross-checks when the caller keeps them (movegen::update_cross_checks).
    std::vector<Move> rank(const Position& pos, const LeaveTable* leaves, int top,
                           const movegen::CrossChecks* cross = nullptr) const {
        std::vector<int> rack(alpha_);
        int rack_n = 0;
        for (int t = 0; t < alpha_; t++) {
            rack[t] = pos.counts[t];
            rack_n += pos.counts[t];
        }
        movegen::Request req;
        req.leaves = leaves ? leaves->table() : nullptr;
        req.top = std::max(top, 0);
        if (pos.can_exchange && pos.bag_count >= std::max(r_.exchange_min_bag, 0)) {
            req.max_exchange = std::min(rack_n, pos.bag_count);  // R4.3
        }
        if (pos.bag_count == 0) req.endgame_opp_points = pos.opp_points;
        req.cross = cross;
        req.pass_outside_top = pos.bag_count > 0;  // rated here, by pass_below_best
        req.mirrors = false;  // an opening and its mirror image are one move to choose from
        std::vector<Move> moves = movegen::generate(gen_->config(), pos.board, rack, req);
        if (pos.bag_count > 0) pass_below_best(moves, top);
        return moves;
    }

    // The static player's move for a player with `score` points: the top of `rank`, except
    // that in a finish-line game (R8.3) a turn whose top score reaches the target ranks by
    // score alone, as what a play keeps is worth nothing then
    // (tessera.engine.players.finish_line_last_turn).
    Move best_move(const Position& pos, const LeaveTable* leaves, int score,
                   const movegen::CrossChecks* cross = nullptr) const {
        std::vector<Move> best = rank(pos, leaves, 1, cross);
        if (r_.finish_target >= 0 && leaves != nullptr) {
            std::vector<Move> by_score = rank(pos, nullptr, 1, cross);
            if (score + by_score.front().score >= r_.finish_target) return by_score.front();
        }
        return best.front();
    }

    // The static equity of a pass while tiles remain in the bag. The generator rates it as the
    // leave value of the whole rack -- a leave no table lists, so 0 -- and a pass then beat
    // every play of negative equity near the end, when no exchange is allowed. But a pass keeps
    // the rack and draws nothing: next turn offers the same plays at best, a turn later, so over
    // the rest of the game it is worth the best other move less a turn. A turn is worth
    // TURN_VALUE: the mean score of a turn in static self-play (ENABLE, naspa; 36.0 points over
    // 500 games). The pass thus ranks below every other move; with nothing else, it stands.
    static constexpr double TURN_VALUE = 36.0;

    // `moves` ranked, the pass among them unless the top was asked for without it (then it
    // is put back wherever its rating places it within the top, as in the whole list).
    static void pass_below_best(std::vector<Move>& moves, int top) {
        auto pass = std::find_if(moves.begin(), moves.end(),
                                 [](const Move& m) { return m.kind == movegen::PASS; });
        auto other = std::find_if(moves.begin(), moves.end(),
                                  [](const Move& m) { return m.kind != movegen::PASS; });
        if (other != moves.end()) {
            Move p{};
            p.kind = movegen::PASS;
            p.equity = other->equity - TURN_VALUE;
            if (pass != moves.end()) moves.erase(pass);
            moves.insert(std::upper_bound(moves.begin(), moves.end(), p, movegen::better), p);
        }
        if (top > 0 && static_cast<int>(moves.size()) > top) moves.resize(top);
    }

    py::list moves_py(const std::vector<int>& board, const std::vector<int>& rack,
                      const LeaveTable* leaves, int bag_count, int opp_points, bool can_exchange,
                      int top) const;
    py::dict play_game(std::vector<int> bag, std::vector<uint32_t> rng_state,
                       std::vector<std::vector<int>> racks, int to_move, std::vector<int> scores,
                       std::vector<const LeaveTable*> leaves, int max_turns) const;
    py::dict play_seeded(uint64_t seed, std::vector<int> bag, int first, bool return_order_tiles,
                         std::vector<const LeaveTable*> leaves, int max_turns) const;

    // The turns of a game from `g` to its end (selfplay.cpp).
    py::dict run_game(Duel& g, RandomBag& bag, int to_move,
                      const std::vector<const LeaveTable*>& leaves, int max_turns) const;

    // (kind, row, col, across, tiles, score, equity): a play's main word (0 = a square already
    // on the board), an exchange's tiles, or nothing for the pass.
    static py::tuple move_tuple(const Move& m);
    // The inverse of move_tuple (ValueError if malformed).
    Move move_from_tuple(const py::tuple& t) const;

    // std::invalid_argument unless `t` is a tile id of this alphabet (blank bit allowed).
    void check_tile(int t) const {
        int f = face(t);
        if (f < 0 || f >= alpha_)
            throw std::invalid_argument("tile id " + std::to_string(t) + " out of range");
    }

    const GameRules& rules() const { return r_; }
    const movegen::Config& config() const { return gen_->config(); }
    int rows() const { return rows_; }
    int cols() const { return cols_; }
    int alpha() const { return alpha_; }
    int value(int t) const { return values_[face(t)]; }

   private:
    py::object keep_;  // the generator's Python object, owner of *gen_
    const movegen::Generator* gen_;
    int rows_ = 15, cols_ = 15, alpha_ = 27;
    std::vector<int> values_;
    GameRules r_;
};

// ---- a two-player game in the compiled loops --------------------------------------------------

// The bag of the self-play loop: draws are random picks (CPython's randrange, as Game draws),
// exchanged tiles go to the end of the list.
struct RandomBag {
    std::vector<uint8_t> tiles;
    PyRandom* rng;
    size_t size() const { return tiles.size(); }
    uint8_t draw() {
        const uint32_t i = rng->below(static_cast<uint32_t>(tiles.size()));
        const uint8_t t = tiles[i];
        tiles.erase(tiles.begin() + i);
        return t;
    }
    void put_back(uint8_t t) { tiles.push_back(t); }
};

struct Duel {
    std::vector<uint8_t> board;
    int counts[2][MAX_TILES];
    int scores[2] = {0, 0};
    int exchanges[2] = {0, 0};
    int bingos[2] = {0, 0};
    int scoreless = 0;
    int passes = 0;
    bool over = false;
    const char* reason = "turn_limit";

    Duel(const StaticEngine& eng) : board(eng.rows() * eng.cols(), 0) {
        std::memset(counts, 0, sizeof(counts));
    }

    int rack_size(const StaticEngine& eng, int p) const {
        int n = 0;
        for (int t = 0; t < eng.alpha(); t++) n += counts[p][t];
        return n;
    }
    int rack_points(const StaticEngine& eng, int p) const {
        int s = 0;
        for (int t = 1; t < eng.alpha(); t++) s += counts[p][t] * eng.value(t);
        return s;
    }

    // What the static player to move (p) sees.
    Position position(const StaticEngine& eng, int p, int bag_count) const {
        Position pos;
        pos.board = board.data();
        std::memcpy(pos.counts, counts[p], sizeof(pos.counts));
        pos.bag_count = bag_count;
        pos.opp_points = rack_points(eng, 1 - p);
        const GameRules& r = eng.rules();
        pos.can_exchange = bag_count >= r.exchange_need() &&
                           (r.max_exchanges < 0 || exchanges[p] < r.max_exchanges);
        return pos;
    }

    // The board squares (row-major) a play puts tiles on; returns how many.
    static int placed_squares(const StaticEngine& eng, const Move& m, int* out) {
        if (m.kind != movegen::PLAY) return 0;
        int n = 0;
        for (int i = 0; i < m.len; i++)
            if (m.word[i])
                out[n++] = (m.row + (m.across ? 0 : i)) * eng.cols() + m.col + (m.across ? i : 0);
        return n;
    }

    // Player p makes move m (a move the static engine listed for p): tiles go down and are
    // replaced from the bag, the turn counts towards the scoreless and pass endings, and the
    // game ends by playing out (with the preset's rack adjustment) or by those endings.
    template <class Bag>
    void apply(const StaticEngine& eng, int p, const Move& m, Bag& bag) {
        const GameRules& r = eng.rules();
        const int o = 1 - p;
        const int cols = eng.cols();
        if (m.kind == movegen::PLAY) {
            const int dr = m.across ? 0 : 1, dc = m.across ? 1 : 0;
            int used = 0;
            for (int i = 0; i < m.len; i++) {
                const uint8_t t = m.word[i];
                if (!t) continue;
                board[(m.row + dr * i) * cols + m.col + dc * i] = t;
                counts[p][face(t)]--;
                used++;
            }
            scores[p] += m.score;
            if (eng.config().bingo[used] > 0) bingos[p]++;  // the preset's bingo sizes (R8.2.1)
            int n = rack_size(eng, p);
            while (n < r.rack_size && bag.size() > 0) {
                counts[p][bag.draw()]++;
                n++;
            }
            if (m.score == 0 && r.zero_point_play_is_scoreless) scoreless++;
            else scoreless = 0;
            passes = 0;
        } else if (m.kind == movegen::EXCHANGE) {
            for (int i = 0; i < m.len; i++) counts[p][m.word[i]]--;
            for (int i = 0; i < m.len; i++) counts[p][bag.draw()]++;
            for (int i = 0; i < m.len; i++) bag.put_back(m.word[i]);
            exchanges[p]++;
            if (r.exchange_counts_as_scoreless) scoreless++;
            passes = r.exchange_counts_as_pass ? passes + 1 : 0;
        } else {
            scoreless++;
            passes++;
        }
        if (m.kind == movegen::PLAY && bag.size() == 0 && rack_size(eng, p) == 0) {
            const int v = rack_points(eng, o);
            if (r.out_double) {
                scores[p] += 2 * v;
            } else {
                scores[o] -= v;
                scores[p] += v;
            }
            reason = "played_out";
            over = true;
            return;
        }
        if (r.finish_target >= 0 && scores[p] >= r.finish_target) {  // R8.3.2: no adjustment
            reason = "finish_line";
            over = true;
            return;
        }
        const bool empty_block =
            !r.zeros_can_end_empty_board &&
            std::all_of(board.begin(), board.end(), [](uint8_t t) { return t == 0; });
        const bool end_zero = r.scoreless_turns_to_end >= 0 && scoreless >= r.scoreless_turns_to_end;
        const bool end_pass = r.passes_to_end >= 0 && passes >= r.passes_to_end;
        if ((end_zero || end_pass) && !empty_block) {
            scores[0] -= rack_points(eng, 0);
            scores[1] -= rack_points(eng, 1);
            reason = end_zero ? "scoreless_turns" : "passes";
            over = true;
        }
    }
};

}  // namespace tessera::engine
