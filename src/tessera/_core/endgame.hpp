// Exact endgame search: both racks known, the bag empty (or, for pre-endgames, a bag of a few
// tiles in a known order), the game's own ending rules.
//
// Negamax over both sides' complete move lists (every play and the pass, from the compiled
// move generator), alpha-beta with principal-variation search, iterative deepening, and a
// transposition table keyed by an incremental Zobrist hash of the board, both racks, the bag,
// the side to move and the scoreless-turn and pass counts. Values are spread changes from the
// position to the end of the game for the side to move, so a table entry holds for any score.
//
// A search result is *proven* when it never stopped at the depth horizon: every line it relied
// on reached the end of the game. Table entries carry that flag, and a proven entry answers
// at any depth. Lazy SMP: helper threads search the same tree in other orders and share the
// table; the first thread to prove the root ends the search.
//
// The readable specification is tessera/engine/endgame_reference.py (plain minimax).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "movegen.hpp"

namespace tessera::endgame {

constexpr int MAX_TILES = movegen::MAX_LETTERS + 1;  // tile ids 0..63 (blank bit aside)
constexpr int MAX_BAG = 7;                           // tiles a searched bag may hold

// R6: how the game ends besides a player going out (which always ends it, R6.1, R6.4).
struct EndRules {
    int scoreless_turns_to_end = 6;  // R6.2; -1: none
    int passes_to_end = -1;          // R6.3 (two players); -1: none
    bool zero_point_play_is_scoreless = false;
    bool zeros_can_end_empty_board = true;
};

// A position: the side to move holds racks[0].
struct State {
    std::vector<uint8_t> board;                   // rows*cols tile ids, row-major, 0 empty
    std::vector<std::vector<int>> racks;          // two racks, counts per tile id
    std::vector<uint8_t> bag;                     // tiles to draw, first drawn first
    int scoreless = 0;                            // consecutive scoreless turns so far
    int passes = 0;                               // consecutive passes so far
};

struct Options {
    double time_limit = 0;   // seconds; <= 0: none
    int threads = 1;
    int max_depth = 0;       // plies; 0: until proven
    bool plain = false;      // plain alpha-beta to the end: no table, PVS or deepening
    // When set, the root considers only this move (a pre-endgame candidate).
    bool only = false;
    movegen::Move only_move{};
};

struct Result {
    int value = 0;                      // spread change for the side to move
    std::vector<movegen::Move> line;    // principal variation, sides alternating
    bool proven = false;
    int depth = 0;                      // deepest completed iteration (plies)
    uint64_t nodes = 0;                 // moves made during the search
    double seconds = 0;
    uint64_t tt_probes = 0;
    uint64_t tt_hits = 0;
};

// The transposition table: two 64-bit words per entry, written and read without locks (the
// key is stored XOR the data, so a torn entry reads as a miss).
class Table {
  public:
    explicit Table(size_t entries);
    void clear();
    size_t size() const { return size_; }
    // data: value (32 bits), bound kind (2), depth (8; 255 = proven), move fingerprint (22)
    bool probe(uint64_t key, uint64_t& data) const;
    void store(uint64_t key, uint64_t data);

  private:
    size_t size_;
    size_t mask_;
    std::unique_ptr<std::atomic<uint64_t>[]> words_;
};

// One solver per (word graph, board geometry, ending rules); searches may run at once and
// share its table.
class Solver {
  public:
    Solver(const movegen::Config& cfg, EndRules rules, size_t table_entries);
    // Throws std::invalid_argument for a position the search cannot take (a racks or bag
    // size out of range, the side to move with no tiles, an `only` move that is not legal).
    Result solve(const State& state, const Options& options);
    void clear_table() { table_.clear(); }
    const movegen::Config& config() const { return cfg_; }

  private:
    const movegen::Config& cfg_;
    EndRules rules_;
    Table table_;
};

}  // namespace tessera::endgame
