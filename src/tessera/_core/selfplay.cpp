// Static-equity move choice and whole self-play games in C++ (the computer players' hot loop).
//
// `StaticEngine` (static_engine.hpp) ranks the moves of a position with the move generator
// (movegen.cpp) by static equity: score plus the value of the tiles kept (a `LeaveTable`,
// KLV2), or, when the bag is empty, +2x the opponent's rack for going out and -(10 + 2x the
// points kept) for not going out. While tiles remain in the bag a pass is worth the best other
// move less a turn (pass_below_best); in a finish-line game (R8.3) a turn whose top score
// reaches the target ranks by score alone. `play_game()` plays a whole game between two static
// players with the bag, racks and random generator state taken from a Python
// `tessera.game.Game`: tile draws use CPython's Mersenne Twister and `randrange` exactly, so
// the game is the one the Python `Game` produces when the same moves are played in it (tests
// check this).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "static_engine.hpp"

namespace py = pybind11;

namespace tessera::engine {

GameRules rules_from_dict(const py::dict& rules) {
    GameRules r;
    auto get = [&](const char* k, int d) { return rules.contains(k) ? rules[k].cast<int>() : d; };
    r.rack_size = get("rack_size", 7);
    r.exchange_min_bag = get("exchange_min_bag", 7);
    r.max_exchanges = get("max_exchanges", -1);
    r.exchange_counts_as_scoreless = get("exchange_counts_as_scoreless", 1) != 0;
    r.exchange_counts_as_pass = get("exchange_counts_as_pass", 0) != 0;
    r.scoreless_turns_to_end = get("scoreless_turns_to_end", 6);
    r.zero_point_play_is_scoreless = get("zero_point_play_is_scoreless", 0) != 0;
    r.zeros_can_end_empty_board = get("zeros_can_end_empty_board", 1) != 0;
    r.passes_to_end = get("passes_to_end", -1);
    r.out_double = get("out_double", 1) != 0;
    r.finish_target = get("finish_target", -1);
    return r;
}

float LeaveTable::value(const std::vector<int>& tiles) const {
    int counts[MAX_TILES] = {};
    for (int t : tiles) {
        const int f = face(t);
        if (f < 0 || f >= MAX_TILES) throw py::value_error("tile id " + std::to_string(t) + " out of range");
        counts[f]++;
    }
    return static_cast<float>(value_of_counts(counts));
}

StaticEngine::StaticEngine(const py::object& generator, py::dict rules)
    : keep_(generator), gen_(&generator.cast<const movegen::Generator&>()) {
    const movegen::Config& cfg = gen_->config();
    rows_ = cfg.rows;
    cols_ = cfg.cols;
    alpha_ = cfg.letters() + 1;
    values_ = cfg.values;
    r_ = rules_from_dict(rules);
}

py::tuple StaticEngine::move_tuple(const Move& m) {
    py::tuple w(m.len);
    for (int k = 0; k < m.len; ++k) w[k] = py::int_(m.word[k]);
    return py::make_tuple(static_cast<int>(m.kind), static_cast<int>(m.row),
                          static_cast<int>(m.col), m.across != 0, w, m.score, m.equity);
}

Move StaticEngine::move_from_tuple(const py::tuple& t) const {
    if (t.size() != 7) throw py::value_error("a move is (kind, row, col, across, tiles, score, equity)");
    Move m{};
    const int kind = t[0].cast<int>();
    if (kind < 0 || kind > 2) throw py::value_error("move kind must be 0 (play), 1 or 2");
    m.kind = static_cast<uint8_t>(kind);
    const int row = t[1].cast<int>(), col = t[2].cast<int>();
    const auto tiles = t[4].cast<std::vector<int>>();
    if (tiles.size() > static_cast<size_t>(movegen::MAX_DIM)) throw py::value_error("a move of too many tiles");
    if (m.kind == movegen::PLAY) {
        const bool across = t[3].cast<bool>();
        const int last_r = row + (across ? 0 : static_cast<int>(tiles.size()) - 1);
        const int last_c = col + (across ? static_cast<int>(tiles.size()) - 1 : 0);
        if (tiles.empty() || row < 0 || col < 0 || last_r >= rows_ || last_c >= cols_)
            throw py::value_error("a play off the board");
        m.row = static_cast<uint8_t>(row);
        m.col = static_cast<uint8_t>(col);
        m.across = across ? 1 : 0;
    }
    m.len = static_cast<uint8_t>(tiles.size());
    for (size_t i = 0; i < tiles.size(); i++) {
        if (tiles[i] != 0 || m.kind == movegen::EXCHANGE) check_tile(tiles[i]);
        m.word[i] = static_cast<uint8_t>(tiles[i]);
    }
    m.score = t[5].cast<int>();
    m.equity = t[6].cast<double>();
    return m;
}

py::list StaticEngine::moves_py(const std::vector<int>& board, const std::vector<int>& rack,
                                const LeaveTable* leaves, int bag_count, int opp_points,
                                bool can_exchange, int top) const {
    if (static_cast<int>(board.size()) != rows_ * cols_)
        throw std::invalid_argument("board must have rows*cols cells");
    std::vector<uint8_t> cells(board.size());
    for (size_t i = 0; i < board.size(); i++) {
        const int t = board[i];
        if (t) check_tile(t);
        if (t && (t & 0x7F) == 0) throw std::invalid_argument("a blank on the board needs a letter");
        cells[i] = static_cast<uint8_t>(t);
    }
    Position p;
    p.board = cells.data();
    std::memset(p.counts, 0, sizeof(p.counts));
    int n = 0;
    for (int t : rack) {
        check_tile(t);
        p.counts[face(t)]++;
        n++;
    }
    if (n > movegen::MAX_RACK) throw std::invalid_argument("racks of at most 15 tiles");
    p.bag_count = bag_count;
    p.opp_points = opp_points;
    p.can_exchange = can_exchange;
    std::vector<Move> ranked;
    {
        py::gil_scoped_release release;
        ranked = rank(p, leaves, top);
    }
    py::list out;
    for (const Move& m : ranked) out.append(move_tuple(m));
    return out;
}

// Play a whole game between two static players (2 players). Returns a dict with the turns and
// the final state.
py::dict StaticEngine::play_game(std::vector<int> bag, std::vector<uint32_t> rng_state,
                                 std::vector<std::vector<int>> racks, int to_move,
                                 std::vector<int> scores, std::vector<const LeaveTable*> leaves,
                                 int max_turns) const {
    if (racks.size() != 2 || scores.size() != 2 || leaves.size() != 2)
        throw std::invalid_argument("the compiled self-play loop plays two-player games");
    if (rng_state.size() != 625) throw std::invalid_argument("rng state: 625 words");
    PyRandom rng;
    for (int i = 0; i < 624; i++) rng.mt[i] = rng_state[i];
    rng.index = static_cast<int>(rng_state[624]);
    RandomBag bagv{{}, &rng};
    for (int t : bag) {
        check_tile(t);
        bagv.tiles.push_back(static_cast<uint8_t>(face(t)));
    }
    Duel g(*this);
    for (int p = 0; p < 2; p++) {
        for (int t : racks[p]) {
            check_tile(t);
            g.counts[p][face(t)]++;
        }
        g.scores[p] = scores[p];
    }
    return run_game(g, bagv, to_move, leaves, max_turns);
}

// The game tessera.game.Game(rules, players=2, seed=seed) deals, played to its end: the same
// random generator (random.Random(seed)), the unshuffled bag `bag`, the first player drawn as
// Game._choose_first draws (lowest tile wins, ties redraw; the order tiles go back to the bag
// or, without return_order_tiles, start the racks) unless `first` (>= 0) fixes it, then both
// racks filled in seat order -- without building the Python Game at all.
py::dict StaticEngine::play_seeded(uint64_t seed, std::vector<int> bag, int first,
                                   bool return_order_tiles,
                                   std::vector<const LeaveTable*> leaves, int max_turns) const {
    if (leaves.size() != 2)
        throw std::invalid_argument("the compiled self-play loop plays two-player games");
    PyRandom rng;
    rng.seed(seed);
    RandomBag bagv{{}, &rng};
    bagv.tiles.reserve(bag.size());
    for (int t : bag) {
        check_tile(t);
        bagv.tiles.push_back(static_cast<uint8_t>(face(t)));
    }
    Duel g(*this);
    int to_move = first >= 0 ? first % 2 : -1;
    std::vector<int> contenders = {0, 1};
    int kept[2] = {-1, -1};
    while (to_move < 0) {
        int drawn[2] = {-1, -1};
        for (int p : contenders) drawn[p] = bagv.draw();
        int best = 1 << 30;
        for (int p : contenders) best = std::min(best, drawn[p]);
        std::vector<int> winners;
        for (int p : contenders) {
            if (drawn[p] == best) winners.push_back(p);
            if (return_order_tiles) {
                bagv.put_back(static_cast<uint8_t>(drawn[p]));
            } else {
                if (kept[p] >= 0) bagv.put_back(static_cast<uint8_t>(kept[p]));
                kept[p] = drawn[p];
            }
        }
        if (winners.size() == 1) {
            for (int p = 0; p < 2; p++)
                if (kept[p] >= 0) g.counts[p][kept[p]]++;
            to_move = winners[0];
        }
        contenders = winners;
    }
    for (int p = 0; p < 2; p++) {
        int n = g.rack_size(*this, p);
        while (n < r_.rack_size && bagv.size() > 0) {
            g.counts[p][bagv.draw()]++;
            n++;
        }
    }
    return run_game(g, bagv, to_move, leaves, max_turns);
}

// The turns of a game from state `g` to its end (or max_turns): each player's best move by
// static equity. The board's cross-checks are kept from turn to turn and brought up to date
// after each play (movegen::update_cross_checks), not recomputed for every search.
py::dict StaticEngine::run_game(Duel& g, RandomBag& bagv, int to_move,
                                const std::vector<const LeaveTable*>& leaves,
                                int max_turns) const {
    py::list turns;
    auto rack_tuple = [&](int p) {
        int n = 0;
        for (int t = 0; t < alpha_; t++) n += g.counts[p][t];
        py::tuple l(n);
        int k = 0;
        for (int t = 1; t < alpha_; t++)
            for (int i = 0; i < g.counts[p][t]; i++) l[k++] = py::int_(t);
        for (int i = 0; i < g.counts[p][0]; i++) l[k++] = py::int_(0);
        return l;
    };
    movegen::CrossChecks cross = movegen::cross_checks(config(), g.board.data());
    int placed[movegen::MAX_DIM];
    for (int turn = 0; !g.over && turn < max_turns; turn++) {
        const int p = to_move;
        const int bag_before = static_cast<int>(bagv.size());
        const Position pos = g.position(*this, p, bag_before);
        const Move m = best_move(pos, leaves[p], g.scores[p], &cross);
        py::tuple rack_before = rack_tuple(p);
        g.apply(*this, p, m, bagv);
        turns.append(py::make_tuple(p, move_tuple(m), rack_before, bag_before));
        const int n = Duel::placed_squares(*this, m, placed);
        if (n > 0 && !g.over)
            movegen::update_cross_checks(config(), g.board.data(), placed, n, cross);
        to_move = 1 - p;
    }
    py::dict out;
    out["turns"] = turns;
    out["scores"] = py::make_tuple(g.scores[0], g.scores[1]);
    out["reason"] = g.reason;
    out["bingos"] = py::make_tuple(g.bingos[0], g.bingos[1]);
    out["over"] = g.over;
    return out;
}

}  // namespace tessera::engine

void register_selfplay(py::module_& m) {
    using tessera::engine::LeaveTable;
    using tessera::engine::StaticEngine;
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
             py::arg("max_turns") = 1000)
        .def("play_seeded", &StaticEngine::play_seeded, py::arg("seed"), py::arg("bag"),
             py::arg("first"), py::arg("return_order_tiles"), py::arg("leaves"),
             py::arg("max_turns") = 1000,
             "The game Game(rules, players=2, seed=seed) deals (first >= 0: that seat starts), "
             "played to its end in the core.");
}
