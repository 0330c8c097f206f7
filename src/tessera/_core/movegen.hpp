// Move generation: every legal play of a rack on a board, with scores and equities, ranked.
//
// The readable specification is tessera/movegen.py (the Python reference generator, Gordon's
// GADDAG search). This generator finds the same moves by spans: every stretch of a line a play
// could cover (an anchor among its squares, no tile just before or after), filled by one walk
// of the KWG's GADDAG per first square (from a square all its spans cover) with cross-checks
// -- all of them for every move, the most promising first for top N (per-span upper bounds);
// Clabbers by slots and an alphagram DAWG. Both produce identical move lists in identical
// order (tested on thousands of positions); with Request::sort false the whole list comes
// unranked.
#pragma once

#include <cstdint>
#include <tuple>
#include <vector>

namespace tessera::movegen {

constexpr int MAX_DIM = 26;    // board rows/columns (GCG column letters A-Z)
constexpr int MAX_RACK = 15;   // tiles on a rack
constexpr int MAX_LETTERS = 63;  // letters of an alphabet (cross-checks are 64-bit masks)

enum Kind : uint8_t { PLAY = 0, EXCHANGE = 1, PASS = 2 };

// One move. For a play, word[0..len) is the main word from (row, col): a placed tile (a
// letter, or letter|0x80 for a designated blank) or 0 for a square already on the board.
// For an exchange, word holds the exchanged tiles (letters ascending, blanks (0) last).
struct Move {
    double equity;
    int32_t score;
    uint8_t kind;
    uint8_t row;
    uint8_t col;
    uint8_t across;
    uint8_t len;
    uint8_t word[MAX_DIM];
};

// True if a ranks before b: higher equity, then the fixed order of tessera.movegen.sort_key.
bool better(const Move& a, const Move& b);

// The lexicon's words as letter multisets, in a Bloom filter: maybe(key) is true for the key of
// every word's multiset and, rarely (under 1%), for another -- enough to rule a multiset out,
// never to rule one in. A multiset's key is the sum of its letters' keys (letter_key), so the
// key of a union is the sum of the parts' keys. Built from the alphagram DAWG.
struct WordSets {
    std::vector<uint64_t> bits;  // blocks of 8 words (512 bits); none: not built
    int shift = 64;              // a key's block: the top bits of its mixed key
    uint64_t letter_key[MAX_LETTERS + 1] = {};
    double build_seconds = 0.0;  // CPU time build() took

    bool built() const { return !bits.empty(); }
    bool maybe(uint64_t key) const {
        const uint64_t h = key * 0x9E3779B97F4A7C15ull;
        const uint64_t* block = bits.data() + ((h >> shift) << 3);
        for (int i = 0; i < 4; ++i) {
            const uint64_t bit = (h >> (9 * i)) & 511;
            if (!((block[bit >> 6] >> (bit & 63)) & 1)) return false;
        }
        return true;
    }
    void add(uint64_t key);
    // Every word of the alphagram DAWG `alpha` (over `letters` letters).
    void build(const std::vector<uint32_t>& alpha, int letters);
};

// Fixed per (lexicon, rules, leaves): the graphs and the board geometry.
struct Config {
    std::vector<uint32_t> kwg;      // the lexicon's KWG (DAWG + GADDAG)
    std::vector<uint32_t> alpha;    // alphagram DAWG: Clabbers validity and bingo bounds
    WordSets words;                 // the same words in a Bloom filter (span bounds)
    bool clabbers = false;          // validity by anagram (R8.5)
    int rows = 15;
    int cols = 15;
    std::vector<int> letter_mult;   // rows*cols, row-major
    std::vector<int> word_mult;
    int start_row = 7;
    int start_col = 7;
    std::vector<int> values;        // per tile id (0 = blank, worth 0)
    std::vector<int> bingo;         // by number of tiles placed, 0..rack_size
    int min_word_length = 2;
    int min_first_tiles = 2;
    bool cover_start = true;
    int letters() const { return static_cast<int>(values.size()) - 1; }
    bool anagram() const { return clabbers; }
    // The board is its own mirror image across the main diagonal (square, start square on
    // the diagonal, premium squares symmetric): on it when empty, a play down is a play
    // across seen in a mirror, the same move but for its notation.
    bool transpose_symmetric() const;
};

// A KLV2 leave table: a DAWG of leaves (tiles ascending, blank 0 first) and one value per leave
// in word-index order.
struct Leaves {
    // The table's DAWG as the generator keeps its own graph (build_masked: a node by a bit
    // test and a popcount), and per node the leaves through the arcs before it in its list: a
    // leave's index (into values) without a scan of its siblings.
    std::vector<uint32_t> masked;
    std::vector<uint32_t> before;
    std::vector<float> values;
};

// Checks the graph and that it holds exactly one leave per value (std::invalid_argument).
Leaves make_leaves(std::vector<uint32_t> kwg, std::vector<float> values);

// The cross-checks of a board: per direction (0 across, 1 down) and square (row-major), the
// letters an empty square may take in a play that way (a bit per letter) and the points of the
// perpendicular tiles it joins (-1: none), and whether the square is an anchor. generate()
// computes them for the whole board; a caller that changes the board a few tiles at a time
// (the endgame search) keeps them with update_cross_checks and passes them in the Request.
struct CrossChecks {
    std::vector<uint64_t> mask[2];
    std::vector<int> xscore[2];
    std::vector<uint8_t> anchor;
};

// What one generation is asked for.
struct Request {
    const Leaves* leaves = nullptr;  // nullptr: every leave is worth 0
    int max_exchange = 0;            // exchanges of 1..max_exchange tiles are listed
    int top = 0;                     // 0: every move ranked; otherwise only the `top` best
    // >= 0: the bag is empty and the opponents hold tiles worth this much. Equity is then the
    // score plus 2x that for going out, or minus (10 + 2x the points kept) for not going out.
    int endgame_opp_points = -1;
    // The board's cross-checks, kept by the caller (nullptr: computed here).
    const CrossChecks* cross = nullptr;
    // With top > 0: the pass takes no place in the top (it is listed only when nothing else
    // is legal), for a caller that rates the pass itself; its leave-value equity would
    // otherwise hold a place and lower the bar every other move must clear.
    bool pass_outside_top = false;
    // false: on an empty board that is its own mirror image (Config::transpose_symmetric),
    // only the plays across are listed -- each play down is the mirror image of one of them,
    // of the same score and leave (engines and hints rank one of the two; a listing of every
    // move keeps both).
    bool mirrors = true;
    // false (with top 0): the moves in the order they are found, not ranked -- the same moves,
    // for a caller that ranks or filters them itself and need not pay for the sort.
    bool sort = true;
};

// Generate the moves of `rack_counts` (per tile id, blanks at 0) on `cells` (rows*cols tile
// ids, row-major, 0 empty). The pass is listed (but see Request::pass_outside_top).
std::vector<Move> generate(const Config& cfg, const uint8_t* cells,
                           const std::vector<int>& rack_counts, const Request& request);

// The cross-checks of `cells`.
CrossChecks cross_checks(const Config& cfg, const uint8_t* cells);

// After tiles were placed on the `n` squares `placed` (row-major indices) of `cells`, bring the
// cross-checks of the board before them up to date: the placed squares, the empty squares at
// either end of the runs of tiles through them, and their neighbours' anchors -- the only
// ones a placement changes. (Lifting tiles is undone by restoring a copy.)
void update_cross_checks(const Config& cfg, const uint8_t* cells, const int* placed, int n,
                         CrossChecks& checks);

// (direction 0 across / 1 down, line, first square, last square, upper bound) of every span a
// play could cover, as top-N search ranks them.
std::vector<std::tuple<int, int, int, int, double>> span_bounds(const Config& cfg,
                                                                const uint8_t* cells,
                                                                const std::vector<int>& rack_counts,
                                                                const Leaves* leaves);

// The KLV2 value of a leave given as counts per tile id (0 for the empty or an unlisted one,
// and without a table).
double leave_value(const Leaves* leaves, const int* counts, int size);

}  // namespace tessera::movegen
