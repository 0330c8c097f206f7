// Static-equity move choice and whole self-play games in C++ (the computer players' hot loop).
//
// `StaticEngine` ranks the moves of a position with the move generator (movegen.cpp) by static
// equity: score plus the value of the tiles kept (a `LeaveTable`, KLV2), or, when the bag is
// empty, +2x the opponent's rack for going out and -(10 + 2x the points kept) for not going
// out. While tiles remain in the bag a pass is worth the best other move less a turn
// (pass_below_best). `play_game()` plays a whole game between two static players with the bag, racks and
// random generator state taken from a Python `tessera.game.Game`: tile draws use CPython's
// Mersenne Twister and `randrange` exactly, so the game is the one the Python `Game` produces
// when the same moves are played in it (tests check this).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

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

namespace py = pybind11;
using namespace tessera;

namespace {

constexpr int MAX_TILES = movegen::MAX_LETTERS + 1;  // tile ids 0..63 (blank bit 0x80 aside)
constexpr uint8_t BLANK_BIT = 0x80;

inline int letter_of(int t) { return t & 0x7F; }

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
    LeaveTable(const py::buffer& nodes, const py::buffer& values)
        : table_(movegen::leaves_from_buffers(nodes, values)) {}

    float value(const std::vector<int>& tiles) const {
        int counts[MAX_TILES] = {};
        for (int t : tiles) {
            const int f = (t & BLANK_BIT) ? 0 : t;
            if (f < 0 || f >= MAX_TILES) throw py::value_error("tile id " + std::to_string(t) + " out of range");
            counts[f]++;
        }
        return static_cast<float>(movegen::leave_value(table_.get(), counts, MAX_TILES));
    }

    size_t size() const { return table_->values.size(); }
    const movegen::Leaves* table() const { return table_.get(); }

   private:
    std::shared_ptr<const movegen::Leaves> table_;
};

// ---- the static engine --------------------------------------------------------------------------

using movegen::Move;

struct Rules {
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
};

class StaticEngine {
   public:
    // `generator` is the tessera._core.MoveGenerator of the lexicon and rules (no leaves of
    // its own: each player brings a LeaveTable); it is kept alive as long as the engine.
    StaticEngine(const py::object& generator, py::dict rules)
        : keep_(generator), gen_(&generator.cast<const movegen::Generator&>()) {
        const movegen::Config& cfg = gen_->config();
        rows_ = cfg.rows;
        cols_ = cfg.cols;
        alpha_ = cfg.letters() + 1;
        values_ = cfg.values;
        auto get = [&](const char* k, int d) { return rules.contains(k) ? rules[k].cast<int>() : d; };
        r_.rack_size = get("rack_size", 7);
        r_.exchange_min_bag = get("exchange_min_bag", 7);
        r_.max_exchanges = get("max_exchanges", -1);
        r_.exchange_counts_as_scoreless = get("exchange_counts_as_scoreless", 1) != 0;
        r_.exchange_counts_as_pass = get("exchange_counts_as_pass", 0) != 0;
        r_.scoreless_turns_to_end = get("scoreless_turns_to_end", 6);
        r_.zero_point_play_is_scoreless = get("zero_point_play_is_scoreless", 0) != 0;
        r_.zeros_can_end_empty_board = get("zeros_can_end_empty_board", 1) != 0;
        r_.passes_to_end = get("passes_to_end", -1);
        r_.out_double = get("out_double", 1) != 0;
    }

    struct Position {
        std::vector<uint8_t> board;  // rows*cols
        int counts[MAX_TILES];       // rack counts by tile id
        int bag_count;
        int opp_points;     // tile points of the opponents' racks (used when the bag is empty)
        bool can_exchange;
    };

    // Rank moves of a position; top <= 0 means all.
    std::vector<Move> rank(const Position& pos, const LeaveTable* leaves, int top) const {
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
        if (pos.bag_count > 0 && req.top > 0) ++req.top;  // the pass may drop out of the top
        std::vector<Move> moves = movegen::generate(gen_->config(), pos.board.data(), rack, req);
        if (pos.bag_count > 0) pass_below_best(moves, top);
        return moves;
    }

    py::list moves_py(const std::vector<int>& board, const std::vector<int>& rack,
                      const LeaveTable* leaves, int bag_count, int opp_points, bool can_exchange,
                      int top) const {
        Position p = position_from(board, rack, bag_count, opp_points, can_exchange);
        std::vector<Move> ranked;
        {
            py::gil_scoped_release release;
            ranked = rank(p, leaves, top);
        }
        py::list out;
        for (const Move& m : ranked) out.append(move_tuple(m));
        return out;
    }

    // Play a whole game between two static players (2 players). Returns a dict with the
    // turns and the final state.
    py::dict play_game(std::vector<int> bag, std::vector<uint32_t> rng_state,
                       std::vector<std::vector<int>> racks, int to_move, std::vector<int> scores,
                       std::vector<const LeaveTable*> leaves, int max_turns) const {
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
            const std::vector<Move> best = rank(pos, leaves[p], 1);
            const Move& m = best.front();
            py::tuple rack_before = rack_tuple(p);
            int bag_before = pos.bag_count;
            if (m.kind == movegen::PLAY) {
                int dr = m.across ? 0 : 1, dc = m.across ? 1 : 0;
                int used = 0;
                for (int i = 0; i < m.len; i++) {
                    uint8_t t = m.word[i];
                    if (!t) continue;
                    board[(m.row + dr * i) * cols_ + m.col + dc * i] = t;
                    counts[p][t & BLANK_BIT ? 0 : t]--;
                    used++;
                }
                sc[p] += m.score;
                if (used == r_.rack_size) bingos[p]++;
                fill(p);
                if (m.score == 0 && r_.zero_point_play_is_scoreless) scoreless++;
                else scoreless = 0;
                passes = 0;
            } else if (m.kind == movegen::EXCHANGE) {
                for (int i = 0; i < m.len; i++) counts[p][m.word[i]]--;
                for (int i = 0; i < m.len; i++) draw(p);
                for (int i = 0; i < m.len; i++) bagv.push_back(m.word[i]);
                exchanges[p]++;
                if (r_.exchange_counts_as_scoreless) scoreless++;
                passes = r_.exchange_counts_as_pass ? passes + 1 : 0;
            } else {
                scoreless++;
                passes++;
            }
            turns.append(py::make_tuple(p, move_tuple(m), rack_before, bag_before));
            to_move = o;
            int left = 0;
            for (int t = 0; t < alpha_; t++) left += counts[p][t];
            if (m.kind == movegen::PLAY && left == 0 && bagv.empty()) {
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
    // The static equity of a pass while tiles remain in the bag. The generator rates it as the
    // leave value of the whole rack -- a leave no table lists, so 0 -- and a pass then beat
    // every play of negative equity near the end, when no exchange is allowed. But a pass keeps
    // the rack and draws nothing: next turn offers the same plays at best, a turn later, so over
    // the rest of the game it is worth the best other move less a turn. A turn is worth
    // TURN_VALUE: the mean score of a turn in static self-play (ENABLE, naspa; 36.0 points over
    // 500 games). The pass thus ranks below every other move; with nothing else, it stands.
    static constexpr double TURN_VALUE = 36.0;

    static void pass_below_best(std::vector<Move>& moves, int top) {
        auto pass = std::find_if(moves.begin(), moves.end(),
                                 [](const Move& m) { return m.kind == movegen::PASS; });
        auto other = std::find_if(moves.begin(), moves.end(),
                                  [](const Move& m) { return m.kind != movegen::PASS; });
        if (pass != moves.end() && other != moves.end()) {
            Move p = *pass;
            p.equity = other->equity - TURN_VALUE;
            moves.erase(pass);
            moves.insert(std::upper_bound(moves.begin(), moves.end(), p, movegen::better), p);
        }
        if (top > 0 && static_cast<int>(moves.size()) > top) moves.resize(top);
    }

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
        int n = 0;
        for (int t : rack) {
            check_tile(t);
            p.counts[(t & BLANK_BIT) ? 0 : t]++;
            n++;
        }
        if (n > movegen::MAX_RACK) throw std::invalid_argument("racks of at most 15 tiles");
        p.bag_count = bag_count;
        p.opp_points = opp_points;
        p.can_exchange = can_exchange;
        return p;
    }

    // (kind, row, col, across, tiles, score, equity): a play's main word (0 = a square already
    // on the board), an exchange's tiles, or nothing for the pass.
    static py::tuple move_tuple(const Move& m) {
        py::tuple w(m.len);
        for (int k = 0; k < m.len; ++k) w[k] = py::int_(m.word[k]);
        return py::make_tuple(static_cast<int>(m.kind), static_cast<int>(m.row),
                              static_cast<int>(m.col), m.across != 0, w, m.score, m.equity);
    }

    py::object keep_;  // the generator's Python object, owner of *gen_
    const movegen::Generator* gen_;
    int rows_ = 15, cols_ = 15, alpha_ = 27;
    std::vector<int> values_;
    Rules r_;
};

}  // namespace

void register_selfplay(py::module_& m) {
    py::class_<LeaveTable>(m, "LeaveTable", "KLV2 leave values for the compiled static player.")
        .def(py::init<const py::buffer&, const py::buffer&>(), py::arg("nodes"), py::arg("values"))
        .def("value", &LeaveTable::value, py::arg("tiles"))
        .def("__len__", &LeaveTable::size);
    py::class_<StaticEngine>(m, "StaticEngine",
                             "Static-equity move ranking and whole self-play games (two players).")
        .def(py::init<const py::object&, py::dict>(), py::arg("generator"), py::arg("rules"))
        .def("moves", &StaticEngine::moves_py, py::arg("board"), py::arg("rack"), py::arg("leaves"),
             py::arg("bag_count"), py::arg("opp_points"), py::arg("can_exchange"), py::arg("top"))
        .def("play_game", &StaticEngine::play_game, py::arg("bag"), py::arg("rng_state"),
             py::arg("racks"), py::arg("to_move"), py::arg("scores"), py::arg("leaves"),
             py::arg("max_turns") = 1000);
}
