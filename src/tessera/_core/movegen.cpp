// Move generation (see movegen.hpp and the Python reference, tessera/movegen.py).
#include "movegen.hpp"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <ctime>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>

#include "kwg.hpp"
#include "movegen_binding.hpp"

namespace py = pybind11;

namespace tessera::movegen {

using kwg::accepts;
using kwg::arc_index;
using kwg::is_end;
using kwg::tile;

namespace {

constexpr uint8_t BLANK_BIT = 0x80;
constexpr double NO_BOUND = -std::numeric_limits<double>::infinity();

// A hint to start loading memory the search will read soon (a no-op where unsupported).
inline void prefetch(const void* p) {
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(p);
#else
    (void)p;
#endif
}

// Without a -mpopcnt build flag __builtin_popcountll is a library call (__popcountdi2); the
// search counts bits on every arc, so the bit trick is inlined instead.
inline int popcount64(uint64_t x) {
#if defined(__POPCNT__) && (defined(__GNUC__) || defined(__clang__))
    return __builtin_popcountll(x);
#elif defined(__GNUC__) || defined(__clang__)
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return static_cast<int>((x * 0x0101010101010101ULL) >> 56);
#else
    int n = 0;
    for (; x; x &= x - 1) ++n;
    return n;
#endif
}

inline int ctz64(uint64_t x) {
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctzll(x);
#else
    int n = 0;
    while (!((x >> n) & 1)) ++n;
    return n;
#endif
}

// The generator's private copy of the word graph (see build_masked): words 0 and 1 are the
// DAWG and GADDAG root lists; every sibling list starts with a 64-bit mask of its tiles (two
// words) followed by its nodes in KWG layout, whose arc indices point at child list headers.
// A node is then found by one bit test and a popcount instead of a scan.
inline uint64_t list_mask(const std::vector<uint32_t>& g, uint32_t h) {
    return g[h] | (static_cast<uint64_t>(g[h + 1]) << 32);
}

inline uint32_t mfind(const std::vector<uint32_t>& g, uint32_t h, uint32_t t) {
    if (h == 0 || t > 63) return 0;
    const uint64_t m = list_mask(g, h);
    if (!((m >> t) & 1)) return 0;
    return h + 2 + static_cast<uint32_t>(popcount64(m & ((uint64_t(1) << t) - 1)));
}

inline uint32_t find(const std::vector<uint32_t>& g, uint32_t list, uint32_t t) {
    return kwg::find(kwg::View{g.data(), g.size()}, list, t);
}

// Exchanged tiles are ordered letters first, blanks last (tessera.movegen._exchange_order).
inline int exchange_order(uint8_t t) { return t == 0 ? 256 : t; }

// The generator's private graph (see list_mask): sibling lists renumbered breadth first from
// the roots, so the lists every search visits first (the top levels of the GADDAG and the
// DAWG) share a few cache lines, each list led by the mask of its tiles. Lists reached twice
// are stored once.
std::vector<uint32_t> build_masked(const std::vector<uint32_t>& g) {
    using kwg::ARC_MASK;
    std::vector<uint32_t> moved(g.size(), 0);  // old list start -> new header (0: not yet)
    std::vector<uint32_t> order;                // old list starts, in new order
    std::vector<std::pair<uint32_t, uint32_t>> lists;  // (header, nodes) in the new array
    std::vector<uint32_t> out(2, 0);
    auto visit = [&](uint32_t list) {
        if (list == 0 || moved[list] != 0) return;
        uint64_t mask = 0;
        uint32_t n = 0;
        for (uint32_t i = list;; ++i) {
            const uint32_t t = tile(g[i]);
            if (t > 63) throw std::length_error("tiles above 63 do not fit the move generator");
            mask |= uint64_t(1) << t;
            ++n;
            if (is_end(g[i])) break;
        }
        const uint32_t h = static_cast<uint32_t>(out.size());
        moved[list] = h;
        order.push_back(list);
        lists.emplace_back(h, n);
        out.push_back(static_cast<uint32_t>(mask & 0xFFFFFFFFu));
        out.push_back(static_cast<uint32_t>(mask >> 32));
        for (uint32_t i = list; i < list + n; ++i) out.push_back(g[i]);
    };
    visit(arc_index(g[1]));
    visit(arc_index(g[0]));
    for (size_t k = 0; k < order.size(); ++k) {
        for (uint32_t i = order[k];; ++i) {
            visit(arc_index(g[i]));
            if (is_end(g[i])) break;
        }
    }
    if (out.size() > ARC_MASK) {
        throw std::length_error("the word graph is too large for the move generator");
    }
    for (const auto& [h, n] : lists) {
        for (uint32_t i = h + 2; i < h + 2 + n; ++i) {
            out[i] = (out[i] & ~ARC_MASK) | moved[arc_index(out[i])];
        }
    }
    out[0] = moved[arc_index(g[0])];
    out[1] = moved[arc_index(g[1])];
    return out;
}

int key_cmp(const Move& a, const Move& b) {
    if (a.kind != b.kind) return a.kind < b.kind ? -1 : 1;
    if (a.kind == PLAY) {
        const int da = a.across ? 0 : 1, db = b.across ? 0 : 1;
        if (da != db) return da < db ? -1 : 1;
        if (a.row != b.row) return a.row < b.row ? -1 : 1;
        if (a.col != b.col) return a.col < b.col ? -1 : 1;
        const int n = std::min(a.len, b.len);
        for (int i = 0; i < n; ++i) {
            if (a.word[i] != b.word[i]) return a.word[i] < b.word[i] ? -1 : 1;
        }
        return a.len == b.len ? 0 : (a.len < b.len ? -1 : 1);
    }
    if (a.kind == EXCHANGE) {
        const int n = std::min(a.len, b.len);
        for (int i = 0; i < n; ++i) {
            const int x = exchange_order(a.word[i]), y = exchange_order(b.word[i]);
            if (x != y) return x < y ? -1 : 1;
        }
        return a.len == b.len ? 0 : (a.len < b.len ? -1 : 1);
    }
    return 0;
}

// A move's place in the fixed tie-break order as far as 64 bits hold it: kind, direction, row,
// column and the first six word tiles (an exchange: its first six tiles in exchange order), a
// missing tile counting as 0. Moves whose prefixes differ are ordered by them exactly as by
// key_cmp; equal prefixes are left to key_cmp.
uint64_t order_prefix(const Move& m) {
    uint64_t k = static_cast<uint64_t>(m.kind) << 62;
    const int n = std::min<int>(m.len, 6);
    if (m.kind == PLAY) {
        k |= static_cast<uint64_t>(m.across ? 0 : 1) << 61;
        k |= static_cast<uint64_t>(m.row) << 56 | static_cast<uint64_t>(m.col) << 51;
        for (int i = 0; i < n; ++i) k |= static_cast<uint64_t>(m.word[i]) << (43 - 8 * i);
    } else if (m.kind == EXCHANGE) {
        for (int i = 0; i < n; ++i) {
            k |= static_cast<uint64_t>(exchange_order(m.word[i])) << (52 - 9 * i);
        }
    }
    return k;
}

// Rank moves best first (as std::sort with better() would), sorting small keys that settle
// nearly every comparison without key_cmp and moving each 48-byte move only once.
void rank_moves(std::vector<Move>& moves) {
    struct Key {
        double equity;
        uint64_t prefix;
        uint32_t index;
    };
    std::vector<Key> keys(moves.size());
    for (size_t i = 0; i < moves.size(); ++i) {
        keys[i] = {moves[i].equity, order_prefix(moves[i]), static_cast<uint32_t>(i)};
    }
    std::sort(keys.begin(), keys.end(), [&moves](const Key& a, const Key& b) {
        if (a.equity != b.equity) return a.equity > b.equity;
        if (a.prefix != b.prefix) return a.prefix < b.prefix;
        return key_cmp(moves[a.index], moves[b.index]) < 0;
    });
    std::vector<Move> ranked;
    ranked.reserve(moves.size());
    for (const Key& k : keys) ranked.push_back(moves[k.index]);
    moves.swap(ranked);
}

// One generation: a position, a rack, and the moves found so far.
struct Gen {
    // Working memory kept per thread from one generation to the next (Scratch, below): once
    // a thread has run a few, a generation allocates only the list it returns.
    struct Scratch;
    Scratch& scratch;

    const Config& c;
    const uint8_t* cells;
    int rows, cols;
    int nletters;
    int counts[MAX_LETTERS + 1] = {};
    int rack_total = 0;
    uint64_t playable = 0;  // letters the rack can put down (all of them with a blank)
    uint64_t rack_letters = 0;  // the letters on the rack (not counting blanks)
    uint64_t held = 0;          // those of them the search has not put down yet (place/unplace)
    int blanks = 0;             // the blanks on the rack
    bool first = false;
    // by direction, the lines that may hold an anchor: those a tile is on or next to
    uint32_t near_lines[2] = {~uint32_t(0), ~uint32_t(0)};
    const Request& req;
    int top = 0;
    std::vector<Move> out;

    // leave values by the "used" code: the tiles taken from the rack, in mixed radix
    int radix[MAX_LETTERS + 1] = {};
    // next_held[t]: the first letter from t on that the rack holds (nletters + 1 if none); the
    // leave walk only branches on those.
    int next_held[MAX_LETTERS + 2] = {};
    std::vector<double>& leave_by_used;
    std::vector<int>& unlisted;  // codes of leaves the table does not hold
    struct Listed {  // a leave the table holds: its code, tiles used, and index in the table
        int code, n;
        uint32_t index;
    };
    std::vector<Listed>& listed;
    double best_leave[MAX_RACK + 1] = {};
    // the same when the tiles used include a blank: the leave then keeps one blank fewer, and
    // a table rates a kept blank highly, so plays that put a blank down are bounded lower
    double best_leave_blank[MAX_RACK + 1] = {};
    int rack_values[MAX_RACK + 1] = {};  // the rack's tile values, highest first (then 0)
    // per letter on the rack: how many of its tiles are worth more (rack_values' index of the
    // first that is not); above_zero: how many are worth more than nothing
    int above[MAX_LETTERS + 1] = {};
    int above_zero = 0;
    // With no blank on a rack of 6 tiles or more: the leaves of one tile, best first, as
    // (value, WordSets key of the tile) -- all_but_one_leave
    std::pair<double, uint64_t> one_kept[MAX_RACK];
    int one_kept_n = 0;
    uint64_t rack_key = 0;           // the key of the rack's letters (WordSets)

    // per direction (0 across, 1 down), per square (row-major): cross-checks, computed here
    // (own) or given by the request
    CrossChecks& own;
    const CrossChecks* checks = nullptr;

    // the line being searched (load_line)
    bool across = true;
    int line = 0;
    int N = 0;
    uint8_t ltile[MAX_DIM] = {};
    int llm[MAX_DIM] = {}, lwm[MAX_DIM] = {}, lxs[MAX_DIM] = {};
    uint64_t lmask[MAX_DIM] = {};
    // the first tile of rack_values a square may take (first_of): its cross-check allows no
    // letter worth as much as the tiles before it
    int lfirst[MAX_DIM] = {};
    bool lanchor[MAX_DIM] = {};
    int loaded_dir = -1, loaded_line = -1;

    // the search state: the rack tiles put on the loaded line's empty squares
    uint8_t placed[MAX_DIM] = {};

    Gen(const Config& cfg, const uint8_t* cells_, const std::vector<int>& rack, const Request& r)
        : scratch(thread_scratch()), c(cfg), cells(cells_), rows(cfg.rows), cols(cfg.cols),
          nletters(cfg.letters()), req(r), top(r.top), leave_by_used(scratch.leave_by_used),
          unlisted(scratch.unlisted), listed(scratch.listed), own(scratch.own),
          whole_rack_memo(scratch.whole_rack_memo) {
        whole_rack_memo.clear();
        ++scratch.generation;
        for (int t = 0; t <= nletters; ++t) {
            counts[t] = rack[t];
            rack_total += rack[t];
            if (t > 0 && rack[t] > 0) playable |= uint64_t(1) << t;
        }
        rack_letters = playable;
        held = playable;
        blanks = counts[0];
        for (int t = 1; t <= nletters; ++t) rack_key += counts[t] * c.words.letter_key[t];
        if (blanks > 0) playable = all_letters();
        cross_letters = all_letters();
        // the lines a tile is on or next to: no other line holds an anchor (but on an empty board)
        uint32_t tile_rows = 0, tile_cols = 0;
        uint8_t in_col[MAX_DIM] = {};  // any tile in the column (OR of its squares)
        for (int r = 0, i = 0; r < rows; ++r, i += cols) {
            uint8_t in_row = 0;
            for (int col = 0; col < cols; ++col) {
                in_row |= cells[i + col];
                in_col[col] |= cells[i + col];
            }
            if (in_row) tile_rows |= uint32_t(1) << r;
        }
        for (int col = 0; col < cols; ++col) {
            if (in_col[col]) tile_cols |= uint32_t(1) << col;
        }
        first = tile_rows == 0;
        if (!first) {
            near_lines[0] = tile_rows | tile_rows << 1 | tile_rows >> 1;
            near_lines[1] = tile_cols | tile_cols << 1 | tile_cols >> 1;
        }
        build_leaves();
    }

    uint64_t all_letters() const {
        return nletters >= 63 ? ~uint64_t(1) : ((uint64_t(1) << (nletters + 1)) - 2);
    }
    int value(uint8_t t) const { return (t & BLANK_BIT) ? 0 : c.values[t]; }
    uint8_t at(int r, int col) const {
        if (r < 0 || r >= rows || col < 0 || col >= cols) return 0;
        return cells[r * cols + col];
    }

    // -- leaves ---------------------------------------------------------------------------

    void build_leaves() {
        int codes = 1;
        for (int t = 0; t <= nletters; ++t) {
            radix[t] = codes;
            codes *= counts[t] + 1;
        }
        leave_by_used.assign(codes, 0.0);
        next_held[nletters + 1] = nletters + 1;
        for (int t = nletters; t >= 0; --t) next_held[t] = counts[t] > 0 ? t : next_held[t + 1];
        for (int n = 0; n <= MAX_RACK; ++n) best_leave[n] = best_leave_blank[n] = NO_BOUND;
        if (req.endgame_opp_points >= 0) {
            endgame_leaves(codes);
        } else if (req.leaves != nullptr && !req.leaves->masked.empty()) {
            unlisted.clear();
            listed.clear();
            leaves_from(next_held[0], true, 0, 0, 0, 0);
            // the values are read once the walk has found them all (and asked for each): the
            // table is megabytes, and reads issued together overlap where one at a time wait
            const std::vector<float>& values = req.leaves->values;
            for (const Listed& x : listed) {
                note_leave(x.code, x.n, static_cast<double>(values[x.index]));
            }
            value_unlisted_leaves(codes);
        } else {
            // every leave is worth 0: any number of tiles 0..rack_total can be used
            for (int n = 0; n <= rack_total; ++n) best_leave[n] = 0.0;
            for (int n = 1; n <= rack_total && blanks > 0; ++n) best_leave_blank[n] = 0.0;
        }
        if (blanks == 0 && rack_total >= 6 && c.words.built() && !c.anagram()) {
            for (int t = next_held[1]; t <= nletters; t = next_held[t + 1]) {
                const double kept_t = leave_by_used[codes - 1 - radix[t]];  // all used but t
                one_kept[one_kept_n++] = {kept_t, c.words.letter_key[t]};
            }
            std::sort(one_kept, one_kept + one_kept_n,
                      [](const auto& a, const auto& b) { return a.first > b.first; });
        }
        int k = 0;
        for (int t = 0; t <= nletters; ++t) {
            for (int i = 0; i < counts[t]; ++i) rack_values[k++] = t == 0 ? 0 : c.values[t];
        }
        std::sort(rack_values, rack_values + k, [](int a, int b) { return a > b; });
        for (int y = 0; y < k; ++y) above_zero += rack_values[y] > 0;
        for (uint64_t x = rack_letters; x; x &= x - 1) {
            const int t = ctz64(x);
            for (int y = 0; y < k; ++y) above[t] += rack_values[y] > c.values[t];
        }
    }

    // Endgame equity: the score plus twice the opponents' tiles for going out, or minus ten
    // plus twice the points kept for not going out.
    void endgame_leaves(int codes) {
        for (int code = 0; code < codes; ++code) {
            int rest = code, n = 0, kept_points = 0;
            for (int t = 0; t <= nletters; ++t) {
                const int used = rest % (counts[t] + 1);
                rest /= counts[t] + 1;
                n += used;
                if (t > 0) kept_points += (counts[t] - used) * c.values[t];
            }
            const double v =
                n == rack_total ? 2.0 * req.endgame_opp_points : -(10.0 + 2.0 * kept_points);
            note_leave(code, n, v);
        }
    }

    // A leave the table does not hold (longer than its leaves) is valued as training values a
    // leave it never saw: the mean, over its tiles x, of value(leave - x) + value(x). Codes
    // count used tiles, so a leave's sub-leaves have larger codes: valued in decreasing code
    // order, they are known when needed. The whole rack (a pass, code 0) keeps the table's
    // value: passing keeps the same rack to face again.
    void value_unlisted_leaves(int codes) {
        std::sort(unlisted.begin(), unlisted.end(), [](int a, int b) { return a > b; });
        const int all_used = codes - 1;
        for (const int code : unlisted) {
            double sum = 0.0;
            int parts = 0, kept = 0;
            for (int t = 0; t <= nletters; ++t) {
                const int kept_t = counts[t] - (code / radix[t]) % (counts[t] + 1);
                if (kept_t == 0) continue;
                kept += kept_t;
                sum += leave_by_used[code + radix[t]] + leave_by_used[all_used - radix[t]];
                ++parts;
            }
            note_leave(code, rack_total - kept, kept >= 2 && code != 0 ? sum / parts : 0.0);
        }
    }

    // The leave of the tiles used by `code` (n of them) is worth v.
    void note_leave(int code, int n, double v) {
        leave_by_used[code] = v;
        if (v > best_leave[n]) best_leave[n] = v;
        // blanks come first in the code (radix[0] == 1): its lowest digit is the blanks used
        if (code % (blanks + 1) > 0 && v > best_leave_blank[n]) best_leave_blank[n] = v;
    }

    // The value of every leave the rack can keep, in one walk of the leave table's DAWG
    // (Leaves::masked; what leave_value finds for one leave): tiles below t are decided, `kept` of
    // them; if `on_path` they spell a path of the DAWG ending at `node` (word index `index`; the
    // root when none are kept), otherwise the table has no leave starting so and those leaves
    // are unlisted.
    void leaves_from(int t, bool on_path, uint32_t node, uint64_t index, int kept, int code) {
        if (t > nletters) {
            const Leaves& lv = *req.leaves;
            if (kept == 0) {
                note_leave(code, rack_total, 0.0);
            } else if (on_path && accepts(lv.masked[node]) && index < lv.values.size()) {
                prefetch(&lv.values[index]);
                listed.push_back({code, rack_total - kept, static_cast<uint32_t>(index)});
            } else {
                unlisted.push_back(code);  // value_unlisted_leaves values it
            }
            return;
        }
        const std::vector<uint32_t>& g = req.leaves->masked;
        for (int j = 0; j <= counts[t]; ++j) {  // keep j of the rack's tiles t
            if (j > 0 && on_path) {  // one more tile t: follow it from node
                const bool root = kept + j - 1 == 0;
                const uint32_t next = mfind(g, root ? g[0] : arc_index(g[node]), t);
                on_path = next != 0;
                if (on_path) {
                    index += (!root && accepts(g[node]) ? 1 : 0) + req.leaves->before[next];
                    node = next;
                }
            }
            leaves_from(next_held[t + 1], on_path, node, index, kept + j,
                        code + (counts[t] - j) * radix[t]);
        }
    }

    // -- cross-checks ---------------------------------------------------------------------

    bool alpha_accepts(const int* lc) const {
        // walk the alphagram DAWG with the letters in sorted order
        uint32_t list = kwg::dawg_root(c.alpha.data());
        uint32_t node = 0;
        for (int t = 1; t <= nletters; ++t) {
            for (int i = 0; i < lc[t]; ++i) {
                node = find(c.alpha, list, t);
                if (node == 0) return false;
                list = arc_index(c.alpha[node]);
            }
        }
        return node != 0 && accepts(c.alpha[node]);
    }

    // The words that are anagrams of the letters lc (per letter) plus `wild` wildcards, walked
    // in the alphagram graph: true if there is one. Without `found`, the walk stops at the
    // first; with it, it goes on and collects in *found the letters the wildcards stand for in
    // them (`used`: those of the path so far) -- one walk where asking once per letter would
    // take one per letter.
    bool anagrams(int* lc, int wild, uint32_t list, int from, int left, uint64_t used,
                  uint64_t* found) const {
        if (list == 0) return false;
        int lowest = 0;  // the smallest letter still needed: no arc may skip past it
        for (int t = from; t <= nletters; ++t) {
            if (lc[t]) {
                lowest = t;
                break;
            }
        }
        bool any = false;
        for (uint32_t i = list;; ++i) {
            const uint32_t node = c.alpha[i];
            const int t = static_cast<int>(tile(node));
            if (lowest && t > lowest) break;
            if (t >= from) {
                const bool real = lc[t] > 0;
                if (real || wild > 0) {
                    const uint64_t path = real ? used : used | uint64_t(1) << t;
                    if (real) --lc[t]; else --wild;
                    bool ok;
                    if (left == 1) {
                        ok = accepts(node);
                        if (ok && found != nullptr) *found |= path;
                    } else {
                        ok = anagrams(lc, wild, arc_index(node), t, left - 1, path, found);
                    }
                    if (real) ++lc[t]; else ++wild;
                    any = any || ok;
                    if (any && found == nullptr) return true;
                }
            }
            if (is_end(node)) break;
        }
        return any;
    }

    // The memo key of the span from..to of the loaded line: its length and its board letters in
    // line order (the same letters in another order make another key, which only costs a
    // second walk); false if they do not fit in 64 bits.
    bool span_key(int from, int to, uint64_t& key) const {
        key = static_cast<uint64_t>(to - from + 1);
        int shift = 5, extra = 0;
        for (int p = from; p <= to; ++p) {
            if (!ltile[p]) continue;
            if (++extra > 9) return false;
            key |= static_cast<uint64_t>(ltile[p] & ~BLANK_BIT) << shift;
            shift += 6;
        }
        return true;
    }

    // The letters cross_check works out: every one, or in a generation only those the rack
    // can put down -- a square's other letters are never tried, and most squares take few of
    // the letters the graph offers there. (Clabbers keeps them all: its slots read the masks
    // whole.)
    uint64_t cross_letters = 0;

    // Allowed letters on empty square (r, col) for plays in direction dir (those of
    // cross_letters), and the value of the perpendicular tiles (-1 if none touch it).
    void cross_check(int r, int col, int dir, uint64_t& m, int& xs) const {
        // the perpendicular line through the square: its step in cells[], and how many
        // squares it has before and after the square
        const int step = dir == 0 ? cols : 1, i = r * cols + col;
        const int room_before = dir == 0 ? r : col;
        const int room_after = dir == 0 ? rows - 1 - r : cols - 1 - col;
        uint8_t before[MAX_DIM], after[MAX_DIM];
        int nb = 0, na = 0, sum = 0;
        for (int s = 1; s <= room_before && cells[i - s * step]; ++s) {
            const uint8_t t = cells[i - s * step];
            before[nb++] = t & ~BLANK_BIT;  // nearest first: the prefix reversed
            sum += value(t);
        }
        for (int s = 1; s <= room_after && cells[i + s * step]; ++s) {
            const uint8_t t = cells[i + s * step];
            after[na++] = t & ~BLANK_BIT;
            sum += value(t);
        }
        if (nb == 0 && na == 0) {
            m = all_letters();
            xs = -1;
            return;
        }
        xs = sum;
        m = 0;
        if (nb + na + 1 < c.min_word_length) return;
        if (c.anagram()) {
            int lc[MAX_LETTERS + 1] = {};
            for (int i = 0; i < nb; ++i) ++lc[before[i]];
            for (int i = 0; i < na; ++i) ++lc[after[i]];
            for (int t = 1; t <= nletters; ++t) {
                ++lc[t];
                if (alpha_accepts(lc)) m |= uint64_t(1) << t;
                --lc[t];
            }
            return;
        }
        const std::vector<uint32_t>& g = c.kwg;
        uint32_t list;
        if (nb == 0) {
            // words L+S: the GADDAG holds reverse(S)+L (no separator); one walk, then the
            // accepting children are the letters
            list = g[1];
            for (int i = na - 1; i >= 0; --i) {
                const uint32_t node = mfind(g, list, after[i]);
                if (node == 0) return;
                list = arc_index(g[node]);
            }
            if (list == 0) return;
            const uint64_t kids = list_mask(g, list);
            for (uint64_t x = kids & cross_letters; x; x &= x - 1) {
                const int t = ctz64(x);
                const uint32_t node = g[list + 2 + popcount64(kids & ((uint64_t(1) << t) - 1))];
                m |= uint64_t(accepts(node)) << t;
            }
            return;
        }
        if (nb > 0) {
            list = g[1];
            for (int i = 0; i < nb; ++i) {
                const uint32_t node = mfind(g, list, before[i]);
                if (node == 0) return;
                list = arc_index(g[node]);
            }
            const uint32_t sep = mfind(g, list, 0);
            if (sep == 0) return;
            list = arc_index(g[sep]);
        } else {
            list = g[0];
        }
        if (list == 0) return;
        const uint64_t kids = list_mask(g, list);
        for (uint64_t x = kids & cross_letters; x; x &= x - 1) {
            const int t = ctz64(x);
            const uint32_t node = g[list + 2 + popcount64(kids & ((uint64_t(1) << t) - 1))];
            bool ok;
            if (na == 0) {
                ok = accepts(node);
            } else {
                uint32_t l2 = arc_index(node), n2 = 0;
                for (int j = 0; j < na; ++j) {
                    n2 = mfind(g, l2, after[j]);
                    if (n2 == 0) break;
                    l2 = arc_index(g[n2]);
                }
                ok = n2 != 0 && accepts(g[n2]);
            }
            m |= uint64_t(ok) << t;
        }
    }

    void compute_cross_checks() {
        if (req.cross != nullptr) {
            checks = req.cross;
            return;
        }
        // an empty square no tile touches is no anchor (but on an empty board) and allows every
        // letter with no cross-word; only the squares next to tiles are worked out
        const int n = rows * cols;
        own.anchor.assign(n, 0);
        for (int dir = 0; dir < 2; ++dir) {
            own.mask[dir].assign(n, all_letters());
            own.xscore[dir].assign(n, -1);
        }
        checks = &own;
        if (first) {
            for (int i = 0; i < n; ++i) {
                own.anchor[i] = c.cover_start ? (i == c.start_row * cols + c.start_col) : 1;
            }
            return;
        }
        for (int r = 0; r < rows; ++r) {
            for (int col = 0; col < cols; ++col) {
                const int i = r * cols + col;
                if (!cells[i]) continue;
                own.mask[0][i] = own.mask[1][i] = 0;
                if (r > 0 && !cells[i - cols] && !own.anchor[i - cols]) check_square(r - 1, col, own);
                if (r + 1 < rows && !cells[i + cols] && !own.anchor[i + cols]) {
                    check_square(r + 1, col, own);
                }
                if (col > 0 && !cells[i - 1] && !own.anchor[i - 1]) check_square(r, col - 1, own);
                if (col + 1 < cols && !cells[i + 1] && !own.anchor[i + 1]) {
                    check_square(r, col + 1, own);
                }
            }
        }
    }

    // The anchor flag and the cross-checks of empty square (r, col) into `cc`: both
    // directions, or only `dir`.
    void check_square(int r, int col, CrossChecks& cc, int dir = -1) const {
        const int i = r * cols + col;
        if (first) {
            cc.anchor[i] = c.cover_start ? (r == c.start_row && col == c.start_col) : 1;
        } else {
            cc.anchor[i] = at(r - 1, col) || at(r + 1, col) || at(r, col - 1) || at(r, col + 1);
        }
        for (int d = 0; d < 2; ++d) {
            if (dir < 0 || d == dir) cross_check(r, col, d, cc.mask[d][i], cc.xscore[d][i]);
        }
    }

    // See update_cross_checks (movegen.hpp).
    void update_cross_checks(const int* placed, int n, CrossChecks& cc) const {
        for (int k = 0; k < n; ++k) {
            const int r = placed[k] / cols, col = placed[k] % cols;
            const int i = placed[k];
            cc.anchor[i] = 0;
            for (int dir = 0; dir < 2; ++dir) {
                cc.mask[dir][i] = 0;
                cc.xscore[dir][i] = -1;
            }
            // the ends of the runs through the square, down its column (the perpendicular
            // words of across plays) and along its row (those of down plays)
            for (int dir = 0; dir < 2; ++dir) {
                const int dr = dir == 0 ? 1 : 0, dc = dir == 0 ? 0 : 1;
                for (int sign = -1; sign <= 1; sign += 2) {
                    int rr = r, cc2 = col;
                    while (at(rr + sign * dr, cc2 + sign * dc)) {
                        rr += sign * dr;
                        cc2 += sign * dc;
                    }
                    rr += sign * dr;
                    cc2 += sign * dc;
                    if (rr >= 0 && rr < rows && cc2 >= 0 && cc2 < cols) {
                        check_square(rr, cc2, cc, dir);
                    }
                }
            }
        }
    }

    // A line's squares as the search reads them (ltile, llm, ...), kept for the rest of the
    // generation: top-N comes back to a line for each group of spans it fills.
    struct Line {
        uint64_t generation = 0;  // the generation that loaded it (Scratch::generation)
        uint8_t tile[MAX_DIM];
        bool anchor[MAX_DIM];
        int lm[MAX_DIM], wm[MAX_DIM], xs[MAX_DIM], first[MAX_DIM];
        uint64_t mask[MAX_DIM];
    };

    void load_line(int dir, int index) {
        if (dir == loaded_dir && index == loaded_line) return;
        loaded_dir = dir;
        loaded_line = index;
        across = dir == 0;
        line = index;
        N = across ? cols : rows;
        Line& ln = scratch.lines[dir * MAX_DIM + index];
        if (ln.generation == scratch.generation) {
            std::memcpy(ltile, ln.tile, sizeof ltile);
            std::memcpy(llm, ln.lm, sizeof llm);
            std::memcpy(lwm, ln.wm, sizeof lwm);
            std::memcpy(lxs, ln.xs, sizeof lxs);
            std::memcpy(lmask, ln.mask, sizeof lmask);
            std::memcpy(lfirst, ln.first, sizeof lfirst);
            std::memcpy(lanchor, ln.anchor, sizeof lanchor);
            return;
        }
        const int step = across ? 1 : cols;
        for (int p = 0, i = across ? index * cols : index; p < N; ++p, i += step) {
            ltile[p] = cells[i];
            llm[p] = c.letter_mult[i];
            lwm[p] = c.word_mult[i];
            lmask[p] = checks->mask[dir][i];
            lfirst[p] = first_of(lmask[p]);
            lxs[p] = checks->xscore[dir][i];
            lanchor[p] = checks->anchor[i] != 0;
        }
        ln.generation = scratch.generation;
        std::memcpy(ln.tile, ltile, sizeof ltile);
        std::memcpy(ln.lm, llm, sizeof llm);
        std::memcpy(ln.wm, lwm, sizeof lwm);
        std::memcpy(ln.xs, lxs, sizeof lxs);
        std::memcpy(ln.mask, lmask, sizeof lmask);
        std::memcpy(ln.first, lfirst, sizeof lfirst);
        std::memcpy(ln.anchor, lanchor, sizeof lanchor);
    }

    bool empty_at(int p) const { return p < 0 || p >= N || ltile[p] == 0; }

    // -- recording --------------------------------------------------------------------------

    // The play of the squares start..end of the loaded line: its empty squares hold the rack
    // tiles placed[] (their number and leave code are counted here, not kept by each step).
    void record(int start, int end) {
        if (walking == BLANK_DOWN && counts[0] == blanks) return;  // found keeping the blanks
        const int len = end - start + 1;
        if (len < c.min_word_length) return;
        int main_sum = 0, wm = 1, cross = 0, tiles = 0, used = 0, first_tile = 0;
        for (int p = start; p <= end; ++p) {
            // a board tile counts its value; a rack tile (on an empty square: `down`) its
            // value times the premiums, a cross-word and the leave (selects, not branches)
            const int down = ltile[p] == 0;
            const uint8_t t = down ? placed[p] : ltile[p];
            const int v = value(t) * (down ? llm[p] : 1);
            main_sum += v;
            wm *= down ? lwm[p] : 1;
            cross += down * (lxs[p] >= 0) * (lxs[p] + v) * lwm[p];
            used += down * radix[(t & BLANK_BIT) ? 0 : t];
            first_tile = (down & (tiles == 0)) ? p : first_tile;
            tiles += down;
        }
        if (first && tiles < c.min_first_tiles) return;
        // one tile down, on row first_tile of column `line`: with an across neighbour the play
        // was found across
        if (tiles == 1 && !across && (at(first_tile, line - 1) || at(first_tile, line + 1))) {
            return;
        }
        const int score = main_sum * wm + cross + c.bingo[tiles];
        const double equity = static_cast<double>(score) + leave_by_used[used];
        if (equity < bar) return;
        Move m;
        m.equity = equity;
        m.score = score;
        m.kind = PLAY;
        m.across = across ? 1 : 0;
        m.row = static_cast<uint8_t>(across ? line : start);
        m.col = static_cast<uint8_t>(across ? start : line);
        m.len = static_cast<uint8_t>(len);
        for (int p = start; p <= end; ++p) m.word[p - start] = ltile[p] ? 0 : placed[p];
        add(m);
    }

    void add(const Move& m) {
        if (top <= 0) {
            out.push_back(m);
            return;
        }
        if (static_cast<int>(out.size()) < top) {
            out.push_back(m);
            std::push_heap(out.begin(), out.end(), better);
        } else if (better(m, out.front())) {
            std::pop_heap(out.begin(), out.end(), better);
            out.back() = m;
            std::push_heap(out.begin(), out.end(), better);
        }
        if (static_cast<int>(out.size()) == top) bar = out.front().equity;
    }

    // With top N: the equity of the N-th move found, once N are found (until then no bound);
    // a play worth less cannot enter the top N.
    double bar = NO_BOUND;

    // -- the search ------------------------------------------------------------------------

    // Rack tile t put on square pos of the loaded line (BLANKS false: t is no blank).
    template <bool BLANKS = true>
    void place(int pos, uint8_t t) {
        const int f = BLANKS && (t & BLANK_BIT) ? 0 : t;
        --counts[f];
        held &= ~(uint64_t((counts[f] == 0) & (!BLANKS || f != 0)) << f);
        placed[pos] = t;
    }

    template <bool BLANKS = true>
    void unplace(int pos, uint8_t t) {
        const int f = BLANKS && (t & BLANK_BIT) ? 0 : t;
        ++counts[f];
        held |= uint64_t(!BLANKS || f != 0) << f;
        placed[pos] = 0;
    }

    // The arcs of `list` (a non-empty list) that a rack tile may follow on square pos of the
    // loaded line -- a letter left on the rack, or one of `blank_as`, the letters a blank may
    // stand for here: into arcs[], returning how many. With `ahead`, their child lists -- the
    // next the search reads -- are prefetched, so the memory loads overlap instead of queueing.
    int rack_arcs(int pos, uint32_t list, bool ahead, uint64_t blank_as, uint32_t* arcs) const {
        const std::vector<uint32_t>& g = c.kwg;
        const uint64_t m = list_mask(g, list);
        int n = 0;
        for (uint64_t allowed = lmask[pos] & (held | blank_as) & m; allowed;
             allowed &= allowed - 1) {
            const int t = ctz64(allowed);
            const uint32_t i =
                list + 2 + static_cast<uint32_t>(popcount64(m & ((uint64_t(1) << t) - 1)));
            if (ahead) prefetch(&g[arc_index(g[i])]);
            arcs[n++] = i;
        }
        return n;
    }

    // True if nothing bounded by b can enter the top N found so far.
    bool hopeless(double b) const {
        return b < bar;
    }

    // -- top-N: spans ranked by upper bounds ---------------------------------------------------

    // A play covers exactly one span of its line: the squares from its first to its last tile,
    // with no tile just before or after. Top-N search ranks the spans by the most a play
    // covering them could be worth and fills them best first, stopping when no remaining span
    // can beat the N-th move.
    struct Span {
        double bound;
        double blank_bound;  // the bound of the plays that put a blank down
        uint8_t dir, line, start, end;
        bool blank_down;  // every play covering it puts a blank down
    };

    // Every span of the loaded line that some play could cover, with its bound: it holds an
    // anchor and 1..rack_total empty squares, each of which some rack tile may fill. Spans
    // come out by first square, then last square.
    //
    // A play's score is linear in its tiles' values: the fixed part (the span's board tiles
    // times the word multiplier, the cross-words' board tiles) plus, for each empty square, the
    // value of its tile times the square's coefficient (letter multiplier times the word
    // multiplier, plus the cross-word's multipliers if it makes one). As the span grows to the
    // right the coefficients are kept sorted, highest first.
    void line_spans(std::vector<Span>& spans) {
        // the line's empty squares in order (pos), the board tiles' values and WordSets key
        // before each (between it and the one before; seg[m], seg_key[m]: after the last), and
        // per empty square the first anchor at or after it
        // (pos[m] is N: the square after the last empty one.) The loops here and below are
        // written without branches on the board's contents where they can be: the board is
        // new to the branch predictor on every call, and a mispredicted branch costs more
        // than the arithmetic that replaces it.
        int pos[MAX_DIM + 1], seg[MAX_DIM + 1], next_anchor[MAX_DIM + 1];
        uint64_t seg_key[MAX_DIM + 1];
        int m = 0, run = 0;
        uint64_t run_key = 0;
        for (int p = 0; p < N; ++p) {
            // an empty square closes the run before it (and is counted); a tile adds to it
            const uint8_t t = ltile[p];
            const int empty = t == 0;
            seg[m] = run;
            seg_key[m] = run_key;
            pos[m] = p;
            m += empty;
            run = (run + value(t)) & (empty - 1);
            run_key = (run_key + c.words.letter_key[t & ~BLANK_BIT]) &
                      (static_cast<uint64_t>(empty) - 1);
        }
        seg[m] = run;
        seg_key[m] = run_key;
        pos[m] = N;
        next_anchor[m] = m;
        for (int e = m - 1; e >= 0; --e) {
            const int anchor = -static_cast<int>(lanchor[pos[e]]);  // all ones if an anchor
            next_anchor[e] = (e & anchor) | (next_anchor[e + 1] & ~anchor);
        }
        // With no blank on a rack of 6 or more, a span of all its tiles or all but one is kept
        // only if the word filter allows it (whole_rack_fits, all_but_one_leave): a group whose
        // anchor lies so far that it has no shorter span is ruled out by those lookups alone,
        // before its squares are read. key_upto[x]: the board letters' key before empty square x.
        const bool filtered = one_kept_n > 0;
        uint64_t key_upto[MAX_DIM + 2];
        if (filtered) {
            key_upto[0] = 0;
            for (int x = 0; x <= m; ++x) key_upto[x + 1] = key_upto[x] + seg_key[x];
        }
        int sq[MAX_RACK], coef[MAX_RACK], firsts[MAX_RACK];  // firsts: best_pairing's `first`
        const int min_length = c.min_word_length, min_tiles = first ? c.min_first_tiles : 0;
        // the rack as locals: the calls below (push_back, the filter's lookups) would otherwise
        // make the compiler read them again on every square
        const int rack_total = this->rack_total, blanks = this->blanks;
        const uint64_t playable = this->playable, rack_letters = this->rack_letters;
        // spans by their first empty square i (from L, just after the empty square before it)
        // and their last, j (to R, just before the empty square after it); those of one i are
        // a group (top_spans)
        for (int i = 0; i < m; ++i) {
            const int A = next_anchor[i];
            if (A == m) break;
            if (A - i + 1 > rack_total) continue;
            if (filtered && A - i + 2 >= rack_total) {
                // spans of rack_total - 1 tiles (to empty square i + rack_total - 2) and of
                // rack_total (to i + rack_total - 1)
                const int j6 = i + rack_total - 2, j7 = j6 + 1;
                const bool six = j6 >= A && j6 < m &&
                                 all_but_one_leave(key_upto[j6 + 2] - key_upto[i]) != NO_BOUND;
                const bool seven =
                    j7 < m && c.words.maybe(rack_key + key_upto[j7 + 2] - key_upto[i]);
                if (!six && !seven) continue;
            }
            const int L = i == 0 ? 0 : pos[i - 1] + 1;
            const uint32_t group_begin = static_cast<uint32_t>(spans.size());
            double best_all = NO_BOUND, best_keep = NO_BOUND, best_blank = NO_BOUND;
            int k = 0, board_sum = seg[i], cross = 0, WM = 1;
            uint64_t board_key = seg_key[i];
            bool no_letter = false;  // a square no letter on the rack may fill: a blank must
            for (int j = i; j < m && k < rack_total; ++j) {
                const int S = pos[j];
                if (!(lmask[S] & playable)) break;
                sq[k] = S;
                cross += std::max(lxs[S], 0) * lwm[S];  // (lxs is -1 with no cross-word)
                no_letter = no_letter || !(lmask[S] & rack_letters);
                ++k;
                // insert the new square's coefficient; a word multiplier changes them all
                if (lwm[S] == 1) {
                    insert_coef(coef, firsts, k - 1, square_coef(S, WM), lfirst[S]);
                } else {
                    WM *= lwm[S];
                    for (int x = 0; x < k; ++x) {
                        insert_coef(coef, firsts, x, square_coef(sq[x], WM), lfirst[sq[x]]);
                    }
                }
                board_sum += seg[j + 1];
                board_key += seg_key[j + 1];
                if (j < A) continue;
                const int R = pos[j + 1] - 1;
                if (R - L + 1 < min_length || k < min_tiles) continue;
                if (k == rack_total && k >= 5 && !whole_rack_fits(L, R, board_key)) continue;
                double leave = best_leave[k];
                if (k + 1 == rack_total && one_kept_n > 0) {
                    leave = all_but_one_leave(board_key);
                    if (leave == NO_BOUND) continue;
                }
                const int tiles = best_pairing(coef, firsts, k);
                const double score = board_sum * WM + cross + tiles + c.bingo[k];
                const double blank_bound = score + best_leave_blank[k];
                // every play covering the span puts a blank down when the rack's letters
                // cannot fill it, for want of tiles or of a letter one square allows
                const bool blank_down = no_letter || k > rack_total - blanks;
                const double bound = blank_down ? blank_bound : score + leave;
                best_all = std::max(best_all, bound);
                if (!blank_down) best_keep = std::max(best_keep, bound);
                best_blank = std::max(best_blank, blank_bound);
                spans.push_back({bound, blank_bound,
                                 static_cast<uint8_t>(loaded_dir),
                                 static_cast<uint8_t>(loaded_line), static_cast<uint8_t>(L),
                                 static_cast<uint8_t>(R), blank_down});
            }
            if (spans.size() > group_begin) {
                scratch.groups.push_back({group_begin, static_cast<uint32_t>(spans.size()),
                                          {best_all, best_keep, best_blank}, false});
            }
        }
    }

    // Coefficient v with first tile u (best_pairing) into coef/first[0..n], kept highest first.
    static void insert_coef(int* coef, int* first, int n, int v, int u) {
        int y = n;
        for (; y > 0 && coef[y - 1] < v; --y) {
            coef[y] = coef[y - 1];
            first[y] = first[y - 1];
        }
        coef[y] = v;
        first[y] = u;
    }

    int square_coef(int p, int WM) const { return llm[p] * (WM + (lxs[p] >= 0) * lwm[p]); }

    // The most the rack's tiles can add on squares with coefficients coef[0..n) (highest
    // first), each square taking a tile from first[x] on in rack_values (highest first): worth
    // at most the most its cross-check allows, a superset of the tiles it allows. With such
    // nested choices the greedy pairing -- squares by coefficient, highest first, each taking
    // the highest tile still free that it may take -- is optimal (swap argument). With no
    // cap (every first[x] 0) it is the plain pairing, coefficient x with tile x. A square
    // left with no tile it may take (y past the rack: rack_values[MAX_RACK] is 0) leaves the
    // plain pairing as the bound.
    int best_pairing(const int* coef, const int* first, int n) const {
        int tiles = 0;
        uint32_t free = (uint32_t(1) << rack_total) - 1;  // by index in rack_values
        bool stuck = false;
        for (int x = 0; x < n; ++x) {
            const uint32_t fits = free >> first[x] << first[x];
            stuck |= fits == 0;
            const int y = ctz64(fits | uint32_t(1) << MAX_RACK);
            free &= ~(uint32_t(1) << y);
            tiles += coef[x] * rack_values[y];
        }
        if (!stuck) return tiles;
        tiles = 0;
        for (int x = 0; x < n; ++x) tiles += coef[x] * rack_values[x];
        return tiles;
    }

    // False if the whole rack plus the board tiles of the span L..R (WordSets key board_key)
    // spell no word in any order: without blanks one lookup of their multiset, with blanks
    // whole_rack.
    bool whole_rack_fits(int L, int R, uint64_t board_key) {
        if (c.alpha.empty()) return true;
        if (blanks == 0 && c.words.built()) return c.words.maybe(rack_key + board_key);
        return whole_rack(L, R).fits;
    }

    // The best leave of a play that puts down all but one tile of the rack (no blank on it) on
    // a span with board letters board_key (WordSets): that of the first tile, best leave
    // first, whose absence leaves the rack and those letters an anagram of some word;
    // NO_BOUND if none does.
    double all_but_one_leave(uint64_t board_key) const {
        const uint64_t key = rack_key + board_key;
        for (int i = 0; i < one_kept_n; ++i) {
            if (c.words.maybe(key - one_kept[i].second)) return one_kept[i].first;
        }
        return NO_BOUND;
    }

    // The key (WordSets) of the board letters of the span L..R of the loaded line.
    uint64_t span_board_key(int L, int R) const {
        uint64_t key = 0;
        for (int p = L; p <= R; ++p) {
            if (ltile[p]) key += c.words.letter_key[ltile[p] & ~BLANK_BIT];
        }
        return key;
    }

    // The whole rack plus the board letters of the span L..R (of the loaded line): whether some
    // word is an anagram of them, and the letters the blanks stand for in those words (the
    // blanks are alike: one may stand for any letter a blank stands for in such a word). With
    // one blank, one WordSets lookup per letter it may be; with two, one per pair of letters
    // (some 350 lookups; a false positive of the filter only loosens the bound); with more, a
    // walk of the alphagram DAWG. Memoised by the span's board letters.
    struct WholeRack {
        bool fits;
        uint64_t blank_as;
    };
    std::vector<std::pair<uint64_t, WholeRack>>& whole_rack_memo;

    struct Group {  // the spans of a line that start on one square (top_spans)
        uint32_t begin, end;
        double best[3];  // by Plays: the best bound of its spans for that kind of play
        bool filled;
    };
    struct Scratch {
        uint64_t generation = 0;  // generations started on this thread
        std::vector<Line> lines = std::vector<Line>(2 * MAX_DIM);  // by direction, then index
        std::vector<double> leave_by_used;
        std::vector<int> unlisted;
        std::vector<Listed> listed;
        CrossChecks own;
        std::vector<std::pair<uint64_t, WholeRack>> whole_rack_memo;
        std::vector<Span> spans;
        std::vector<Group> groups;
        std::vector<int> bucket_head, bucket_next;  // fill_groups' queue
        std::vector<double> bucket_max;
    };
    static Scratch& thread_scratch() {
        thread_local Scratch s;
        return s;
    }

    WholeRack whole_rack(int L, int R) {
        uint64_t key = 0;
        const bool keyed = span_key(L, R, key);
        if (keyed) {
            for (const auto& e : whole_rack_memo) {
                if (e.first == key) return e.second;
            }
        }
        WholeRack res{false, 0};
        if (blanks == 1 && c.words.built()) {
            // one lookup per letter the blank may stand for; a false positive only adds a
            // letter no word of the span takes, which the walk then finds nothing for
            const uint64_t base = rack_key + span_board_key(L, R);
            for (int t = 1; t <= nletters; ++t) {
                if (c.words.maybe(base + c.words.letter_key[t])) res.blank_as |= uint64_t(1) << t;
            }
            res.fits = res.blank_as != 0;
        } else if (blanks == 2 && c.words.built()) {
            const uint64_t base = rack_key + span_board_key(L, R);
            for (int a = 1; a <= nletters; ++a) {
                const uint64_t with_a = base + c.words.letter_key[a];
                for (int b = a; b <= nletters; ++b) {
                    if (c.words.maybe(with_a + c.words.letter_key[b])) {
                        res.blank_as |= uint64_t(1) << a | uint64_t(1) << b;
                    }
                }
            }
            res.fits = res.blank_as != 0;
        } else {
            int lc[MAX_LETTERS + 1];
            for (int t = 0; t <= nletters; ++t) lc[t] = t == 0 ? 0 : counts[t];
            for (int p = L; p <= R; ++p) {
                if (ltile[p]) ++lc[ltile[p] & ~BLANK_BIT];
            }
            res.fits = anagrams(lc, blanks, kwg::dawg_root(c.alpha.data()), 1, R - L + 1, 0,
                                blanks > 0 ? &res.blank_as : nullptr);
        }
        if (keyed) whole_rack_memo.emplace_back(key, res);
        return res;
    }

    // Square p on of the plays of the loaded line that start at L and end on one of the
    // squares in `ends` (a bit per square), the squares before p already filled: a walk of the
    // word graph from `list` (past the GADDAG's separator, the letters after a fill_starts
    // pivot) that follows the board's tiles and puts rack tiles on the empty squares.
    // BLANKS: the rack holds a blank (the walks without are compiled apart, simpler).
    template <bool BLANKS>
    void fill_from(int p, int L, uint32_t list, uint32_t ends) {
        const std::vector<uint32_t>& g = c.kwg;
        const uint64_t blank_as = BLANKS ? blank_choices(p, ends) : 0;
        while (ltile[p]) {
            const uint32_t node = mfind(g, list, ltile[p] & ~BLANK_BIT);
            if (node == 0) return;
            if (((ends >> p) & 1) && accepts(g[node])) record(L, p);
            if ((ends >> (p + 1)) == 0) return;
            list = arc_index(g[node]);
            ++p;
        }
        if (list == 0) return;
        const bool end_here = (ends >> p) & 1, more = (ends >> (p + 1)) != 0;
        uint32_t follow[MAX_LETTERS + 1];
        const int nfollow = rack_arcs(p, list, more, blank_as, follow);
        for (int f = 0; f < nfollow; ++f) {
            const uint32_t node = g[follow[f]];
            const int t = static_cast<int>(tile(node));
            const bool word = end_here & accepts(node);
            const uint32_t next = more ? arc_index(node) : 0;
            if (!word && next == 0) continue;
            for (int blank = 0; blank < (BLANKS ? 2 : 1); ++blank) {
                if (BLANKS && (blank ? !((blank_as >> t) & 1) : counts[t] == 0)) continue;
                const uint8_t tt = static_cast<uint8_t>(blank ? (t | BLANK_BIT) : t);
                place<BLANKS>(p, tt);
                if (word) record(L, p);
                if (next) fill_from<BLANKS>(p + 1, L, next, ends);
                unplace<BLANKS>(p, tt);
            }
        }
    }

    // Every play of the loaded line that starts on one of `starts` and, from start L, ends on
    // one of ends_of[L], by a GADDAG walk from a pivot square all of them cover: first the
    // pivot and the squares before it, leftwards, turning right (after the separator) at each
    // start. Every play from L covers L up to its nearest end, and with it every run of board
    // tiles that starts there; the pivot is the last such tile, so the walk reads those tiles
    // before it puts down any rack tile between them (else the square there that the fewest
    // rack letters may fill). A walk from L would spell every prefix the rack allows before
    // meeting the tiles that rule most of them out -- for most spans a top-N search fills, none
    // fits. The starts that share a pivot share the walk from it down to each of them.
    void fill_starts(int pivot, uint32_t starts) {
        walk_ends = 0;
        for (uint32_t x = starts; x; x &= x - 1) walk_ends |= ends_of[ctz64(x)];
        if (blanks > 0) {
            fill_left<true>(pivot, pivot, c.kwg[1], starts);
        } else {
            fill_left<false>(pivot, pivot, c.kwg[1], starts);
        }
    }

    uint32_t ends_of[MAX_DIM] = {};  // per first square of the line: the last squares sought
    uint32_t walk_ends = 0;          // those of the current walk's starts together

    // The pivot of the plays from L ending on one of `ends` (see fill_starts).
    int pivot_of(int L, uint32_t ends) const {
        const int nearest = ctz64(ends);
        for (int p = nearest; p >= L; --p) {
            if (ltile[p]) return p;
        }
        int pivot = L;
        for (int p = L, fewest = 65; p <= nearest; ++p) {
            const int n = popcount64(lmask[p] & playable);
            if (n < fewest) {
                fewest = n;
                pivot = p;
            }
        }
        return pivot;
    }

    // Square p (the pivot, then leftwards) of a fill_starts walk, `list` the GADDAG arcs for it.
    template <bool BLANKS>
    void fill_left(int p, int pivot, uint32_t list, uint32_t starts) {
        const std::vector<uint32_t>& g = c.kwg;
        if (list == 0) return;
        if (ltile[p]) {
            const uint32_t node = mfind(g, list, ltile[p] & ~BLANK_BIT);
            if (node != 0) left_done<BLANKS>(p, pivot, g[node], starts);
            return;
        }
        const uint64_t blank_as = BLANKS ? blank_choices(pivot, walk_ends) : 0;
        uint32_t follow[MAX_LETTERS + 1];
        const int nfollow = rack_arcs(p, list, true, blank_as, follow);
        for (int f = 0; f < nfollow; ++f) {
            const uint32_t node = g[follow[f]];
            const int t = static_cast<int>(tile(node));
            for (int blank = 0; blank < (BLANKS ? 2 : 1); ++blank) {
                if (BLANKS && (blank ? !((blank_as >> t) & 1) : counts[t] == 0)) continue;
                const uint8_t tt = static_cast<uint8_t>(blank ? (t | BLANK_BIT) : t);
                place<BLANKS>(p, tt);
                left_done<BLANKS>(p, pivot, node, starts);
                unplace<BLANKS>(p, tt);
            }
        }
    }

    // Square p of a fill_starts walk holds its letter, reached by GADDAG node `node`.
    template <bool BLANKS>
    void left_done(int p, int pivot, uint32_t node, uint32_t starts) {
        const std::vector<uint32_t>& g = c.kwg;
        if ((starts >> p) & 1) {
            // a play from p may end at the pivot (the whole word reversed, no separator), or
            // go on after the separator
            const uint32_t ends = ends_of[p];
            if (((ends >> pivot) & 1) && accepts(node)) record(p, pivot);
            if ((ends >> (pivot + 1)) != 0) {
                const uint32_t sep = mfind(g, arc_index(node), 0);
                if (sep != 0) fill_from<BLANKS>(pivot + 1, p, arc_index(g[sep]), ends);
            }
        }
        if ((starts & ((uint32_t(1) << p) - 1)) != 0) {
            fill_left<BLANKS>(p - 1, pivot, arc_index(node), starts);
        }
    }

    // -- blanks in top-N: which letters a blank placed now may stand for ----------------------

    // Per last square of the plays the current fill_starts walk looks for (with blanks on the
    // rack): the bound of those that put a blank down, and the letters a blank may stand for
    // in them.
    double end_blank_bound[MAX_DIM] = {};
    uint64_t end_blank_letters[MAX_DIM] = {};

    // The letters a blank may stand for on square p of a walk for plays ending on one of
    // `ends` (at or after p): none with no blank left or in a walk of the plays that keep
    // them, any in the full list, else blank_designations.
    uint64_t blank_choices(int p, uint32_t ends) const {
        if (counts[0] == 0 || walking == KEEP_BLANKS) return 0;
        return top > 0 ? blank_designations(p, ends) : all_letters();
    }

    // The letters a blank put down on square p of the walk may stand for: those some play
    // ending at or after p (one of `ends`) may still take into the top N with a blank down.
    uint64_t blank_designations(int p, uint32_t ends) const {
        uint64_t letters = 0;
        for (uint32_t e = ends >> p << p; e; e &= e - 1) {
            const int end = ctz64(e);
            if (!hopeless(end_blank_bound[end])) letters |= end_blank_letters[end];
        }
        return letters;
    }

    // Before a walk of the loaded line: note, per end in `ends` of the group of spans
    // [group, group_end), the bound and the letters a blank may stand for (see
    // end_blank_bound); a walk for several groups keeps, per end, the most any allows.
    void prepare_blanks(const Span* group, const Span* group_end, uint32_t ends, bool first_group) {
        for (const Span* sp = group; sp != group_end; ++sp) {
            if (!((ends >> sp->end) & 1)) continue;
            const double bound = sp->blank_bound;
            const uint64_t letters = blank_letters(sp->start, sp->end);
            if (first_group || !((walk_ends >> sp->end) & 1)) {
                end_blank_bound[sp->end] = bound;
                end_blank_letters[sp->end] = letters;
            } else {
                end_blank_bound[sp->end] = std::max(end_blank_bound[sp->end], bound);
                end_blank_letters[sp->end] |= letters;
            }
        }
    }

    // The letters a blank may stand for in a play covering the span L..R: any, unless the play
    // puts down the whole rack -- then rack, blank and board letters are one fixed multiset,
    // and a blank may only stand for a letter that leaves it an anagram of some word.
    uint64_t blank_letters(int L, int R) {
        int empty = 0;
        for (int p = L; p <= R; ++p) empty += ltile[p] == 0;
        if (empty < rack_total || c.alpha.empty()) return all_letters();
        return whole_rack(L, R).blank_as;
    }

    // The directions plays are found in: across only on an empty board whose mirror image
    // it is (Request::mirrors), else both.
    int directions() const {
        return !req.mirrors && first && c.transpose_symmetric() ? 1 : 2;
    }

    // fn() for each line that may hold an anchor (near_lines), loaded.
    template <typename Fn>
    void each_line(Fn&& fn) {
        const int dirs = directions();
        for (int dir = 0; dir < dirs; ++dir) {
            for (int index = 0; index < (dir == 0 ? rows : cols); ++index) {
                if (!((near_lines[dir] >> index) & 1)) continue;
                load_line(dir, index);
                fn();
            }
        }
    }

    // Every play of the board, by spans: per line and first square L, one walk (fill_starts)
    // for every last square R that makes L..R a span some play could cover -- an anchor among
    // its squares, 1..rack_total empty ones each of which some rack tile may fill, no tile
    // just before or after it. A play covers exactly one span, so each is found once; the
    // walk shares what the plays starting on one square have in common, which the GADDAG's
    // per-anchor search repeats for every anchor they cover.
    void all_by_spans() {
        each_line([&] { line_by_spans(); });
    }

    // The full list's plays of the loaded line (all_by_spans).
    void line_by_spans() {
        bool any_anchor = false;
        for (int p = 0; p < N && !any_anchor; ++p) any_anchor = lanchor[p] && !ltile[p];
        if (!any_anchor) return;
        int pivot_at[MAX_DIM];
        for (int L = 0; L < N; ++L) {
            ends_of[L] = 0;
            pivot_at[L] = -1;
            if (!empty_at(L - 1)) continue;
            uint32_t ends = 0;
            int k = 0;
            bool anchored = false;
            for (int R = L; R < N; ++R) {
                if (!ltile[R]) {
                    if (k == rack_total || !(lmask[R] & playable)) break;
                    ++k;
                    anchored = anchored || lanchor[R];
                }
                if (!anchored || !empty_at(R + 1)) continue;
                if (R - L + 1 < c.min_word_length || (first && k < c.min_first_tiles)) {
                    continue;
                }
                ends |= uint32_t(1) << R;
            }
            ends_of[L] = ends;
            if (ends) pivot_at[L] = pivot_of(L, ends);
        }
        // the groups that share a pivot share their walk's squares from the pivot
        // leftwards: one walk serves them all
        for (int L = 0; L < N; ++L) {
            if (pivot_at[L] < 0) continue;
            const int pivot = pivot_at[L];
            uint32_t starts = 0;
            for (int M = L; M <= pivot; ++M) {
                if (pivot_at[M] == pivot) {
                    starts |= uint32_t(1) << M;
                    pivot_at[M] = -1;
                }
            }
            fill_starts(pivot, starts);
        }
    }

    // Every span of the board with its bound, into `spans`, and their groups (top_spans).
    void all_spans(std::vector<Span>& spans) {
        spans.clear();
        scratch.groups.clear();
        each_line([&] { line_spans(spans); });
    }

    void top_spans() {
        // all_spans lists the spans line by line, each first square's together: a group
        all_spans(scratch.spans);
        // With blanks on the rack, the plays that keep them are found first, then those that
        // put one down: a walk that may put a blank down is many times as wide, and the first
        // pass raises the bar its walks must reach (sooner than ranking both kinds together
        // would: their bounds are looser).
        if (blanks > 0) fill_groups(KEEP_BLANKS);
        fill_groups(blanks > 0 ? BLANK_DOWN : ALL_PLAYS);
    }

    enum Plays { ALL_PLAYS, KEEP_BLANKS, BLANK_DOWN };
    Plays walking = ALL_PLAYS;  // the plays the current top_spans walk looks for

    // Every group (top_spans) that holds plays of the kind asked for which can still enter the
    // top N, best bound first. A group is filled once, when it holds the best bound left, for
    // all its spans that can still enter the top N: the others never can (the N-th move only
    // gets better), so groups are ranked by their best span alone. The line's other groups
    // that the same walk serves (same pivot) are filled with it.
    void fill_groups(Plays kind) {
        walking = kind;
        const std::vector<Span>& spans = scratch.spans;
        std::vector<Group>& groups = scratch.groups;
        const auto bound_of = [kind](const Span& x) {
            return kind == BLANK_DOWN                   ? x.blank_bound
                   : kind == KEEP_BLANKS && x.blank_down ? NO_BOUND
                                                         : x.bound;
        };
        // The groups by their best bound in a bucket queue (a bucket per point, or wider when
        // the bounds span more than 4,096 points): most are never taken out, so ordering them
        // all (a heap) costs more than the walks gain from an exact order within a point.
        double lo = std::numeric_limits<double>::infinity(), hi = NO_BOUND;
        for (Group& g : groups) {
            g.filled = false;
            if (g.best[kind] == NO_BOUND) continue;
            lo = std::min(lo, g.best[kind]);
            hi = std::max(hi, g.best[kind]);
        }
        if (hi == NO_BOUND) {
            walking = ALL_PLAYS;
            return;
        }
        const double width = std::max(1.0, (hi - lo) / 4096.0);
        const int nbuckets = static_cast<int>((hi - lo) / width) + 1;
        std::vector<int>& head = scratch.bucket_head;
        std::vector<int>& next = scratch.bucket_next;
        std::vector<double>& top_of = scratch.bucket_max;  // per bucket, its best bound
        head.assign(nbuckets, -1);
        top_of.assign(nbuckets, NO_BOUND);
        next.resize(groups.size());
        for (uint32_t gi = 0; gi < groups.size(); ++gi) {
            const double b = groups[gi].best[kind];
            if (b == NO_BOUND) continue;
            const int k = std::min(nbuckets - 1, static_cast<int>((b - lo) / width));
            next[gi] = head[k];
            head[k] = static_cast<int>(gi);
            top_of[k] = std::max(top_of[k], b);
        }
        const auto live_ends = [&](const Group& g) {
            uint32_t ends = 0;
            for (uint32_t i = g.begin; i < g.end; ++i) {
                const double b = bound_of(spans[i]);
                ends |= uint32_t((b != NO_BOUND) & !hopeless(b)) << spans[i].end;
            }
            return ends;
        };
        const auto same_line = [&](uint32_t a, uint32_t b) {
            const Span& x = spans[groups[a].begin];
            const Span& y = spans[groups[b].begin];
            return x.dir == y.dir && x.line == y.line;
        };
        for (int bucket = nbuckets - 1; bucket >= 0;) {
            if (head[bucket] < 0) {
                --bucket;
                continue;
            }
            if (hopeless(top_of[bucket])) break;  // and so is every bound below it
            const uint32_t gi = static_cast<uint32_t>(head[bucket]);
            head[bucket] = next[gi];
            if (groups[gi].filled || hopeless(groups[gi].best[kind])) continue;
            const Span& sp = spans[groups[gi].begin];
            load_line(sp.dir, sp.line);
            const uint32_t ends = live_ends(groups[gi]);  // not 0: its best span is live
            const int pivot = pivot_of(sp.start, ends);
            uint32_t starts = 0;
            walk_ends = 0;
            const auto take = [&](uint32_t g, uint32_t e) {
                const Span& first_span = spans[groups[g].begin];
                if (kind == BLANK_DOWN) {
                    prepare_blanks(spans.data() + groups[g].begin, spans.data() + groups[g].end, e,
                                   starts == 0);
                }
                groups[g].filled = true;
                ends_of[first_span.start] = e;
                starts |= uint32_t(1) << first_span.start;
                walk_ends |= e;
            };
            take(gi, ends);
            for (uint32_t g = gi; g-- > 0 && same_line(g, gi);) {
                if (groups[g].filled || hopeless(groups[g].best[kind])) continue;
                const uint32_t e = live_ends(groups[g]);
                if (e && pivot_of(spans[groups[g].begin].start, e) == pivot) take(g, e);
            }
            for (uint32_t g = gi + 1; g < groups.size() && same_line(g, gi); ++g) {
                if (spans[groups[g].begin].start > pivot) break;
                if (groups[g].filled || hopeless(groups[g].best[kind])) continue;
                const uint32_t e = live_ends(groups[g]);
                if (e && pivot_of(spans[groups[g].begin].start, e) == pivot) take(g, e);
            }
            fill_starts(pivot, starts);
        }
        walking = ALL_PLAYS;
    }

    // The index in rack_values (highest first) of the first tile worth no more than the best
    // rack letter a cross-check mask allows; if it allows none, of the first worth nothing
    // (a blank).
    int first_of(uint64_t m) const {
        if ((m & rack_letters) == rack_letters) return 0;
        int first = above_zero;
        for (uint64_t x = m & rack_letters; x; x &= x - 1) first = std::min(first, above[ctz64(x)]);
        return first;
    }

    // -- Clabbers ---------------------------------------------------------------------------

    int need[MAX_LETTERS + 1] = {};
    int fill_total = 0;
    uint8_t chosen[MAX_RACK] = {};
    int nchosen = 0;
    int slot_start = 0, slot_end = 0;
    int empties[MAX_DIM] = {};
    int nempty = 0;

    bool need_below(int letter) const {
        for (int t = 1; t < letter; ++t) {
            if (need[t]) return true;
        }
        return false;
    }

    bool need_any() const {
        for (int t = 1; t <= nletters; ++t) {
            if (need[t]) return true;
        }
        return false;
    }

    // Multisets that make the slot an anagram of a word (reference: anagram_fills).
    void fills(uint32_t list, int depth, int last_letter, int last_kind) {
        const std::vector<uint32_t>& g = c.alpha;
        if (list == 0) return;
        for (uint32_t i = list;; ++i) {
            const uint32_t node = g[i];
            const int letter = static_cast<int>(tile(node));
            if (need_below(letter)) break;
            for (int kind = 0; kind < 3; ++kind) {
                if (letter < last_letter || (letter == last_letter && kind < last_kind)) continue;
                if (kind == 0) {
                    if (!need[letter]) continue;
                    --need[letter];
                } else if (kind == 1) {
                    if (need[letter] || counts[letter] == 0) continue;
                    --counts[letter];
                    chosen[nchosen++] = static_cast<uint8_t>(letter);
                } else {
                    if (need[letter] || counts[0] == 0) continue;
                    --counts[0];
                    chosen[nchosen++] = static_cast<uint8_t>(letter | BLANK_BIT);
                }
                if (depth + 1 == fill_total) {
                    if (accepts(node) && !need_any()) arrange_multiset();
                } else {
                    fills(arc_index(node), depth + 1, letter, kind);
                }
                if (kind == 0) {
                    ++need[letter];
                } else {
                    ++counts[kind == 2 ? 0 : letter];
                    --nchosen;
                }
            }
            if (is_end(node)) break;
        }
    }

    uint8_t distinct[MAX_RACK] = {};
    int left_of[MAX_RACK] = {};
    int ndistinct = 0;

    void arrange_multiset() {
        // the chosen tiles were taken from counts during the walk; give them back while
        // arranging (place() takes them again, so leaves and counts stay exact)
        for (int x = 0; x < nchosen; ++x) ++counts[(chosen[x] & BLANK_BIT) ? 0 : chosen[x]];
        ndistinct = 0;
        for (int x = 0; x < nchosen; ++x) {
            int y = 0;
            while (y < ndistinct && distinct[y] != chosen[x]) ++y;
            if (y == ndistinct) {
                distinct[ndistinct] = chosen[x];
                left_of[ndistinct++] = 0;
            }
            ++left_of[y];
        }
        arrange(0);
        for (int x = 0; x < nchosen; ++x) --counts[(chosen[x] & BLANK_BIT) ? 0 : chosen[x]];
    }

    void arrange(int i) {
        if (i == nempty) {
            record(slot_start, slot_end);
            return;
        }
        const int pos = empties[i];
        for (int y = 0; y < ndistinct; ++y) {
            if (!left_of[y]) continue;
            const uint8_t t = distinct[y];
            if (!((lmask[pos] >> (t & ~BLANK_BIT)) & 1)) continue;
            --left_of[y];
            place(pos, t);
            arrange(i + 1);
            unplace(pos, t);
            ++left_of[y];
        }
    }

    void clabbers_line() {
        for (int start = 0; start < N; ++start) {
            if (!empty_at(start - 1)) continue;
            for (int end = start + 1; end < N; ++end) {
                if (!empty_at(end + 1)) continue;
                nempty = 0;
                bool anchored = false, blocked = false;
                for (int p = start; p <= end; ++p) {
                    if (ltile[p]) continue;
                    empties[nempty++] = p;
                    anchored = anchored || lanchor[p];
                    blocked = blocked || lmask[p] == 0;
                }
                if (nempty == 0 || nempty > rack_total || !anchored || blocked) continue;
                for (int t = 0; t <= nletters; ++t) need[t] = 0;
                for (int p = start; p <= end; ++p) {
                    if (ltile[p]) ++need[ltile[p] & ~BLANK_BIT];
                }
                fill_total = end - start + 1;
                slot_start = start;
                slot_end = end;
                nchosen = 0;
                fills(kwg::dawg_root(c.alpha.data()), 0, 0, 0);
            }
        }
    }

    // -- exchanges and the pass -------------------------------------------------------------

    void exchanges(int max_exchange) {
        int take[MAX_LETTERS + 1] = {};
        exchange_from(0, 0, take, max_exchange, 0);
    }

    void exchange_from(int t, int n, int* take, int max_exchange, int code) {
        if (t > nletters) {
            if (n < 1 || leave_by_used[code] < bar) return;  // (below the top N: add() skips it)
            Move m;
            m.kind = EXCHANGE;
            m.score = 0;
            m.row = m.col = m.across = 0;
            int k = 0;
            for (int x = 1; x <= nletters; ++x) {
                for (int y = 0; y < take[x]; ++y) m.word[k++] = static_cast<uint8_t>(x);
            }
            for (int y = 0; y < take[0]; ++y) m.word[k++] = 0;
            m.len = static_cast<uint8_t>(k);
            m.equity = leave_by_used[code];
            add(m);
            return;
        }
        for (int k = 0; k <= counts[t] && n + k <= max_exchange; ++k) {
            take[t] = k;
            exchange_from(t + 1, n + k, take, max_exchange, code + k * radix[t]);
        }
        take[t] = 0;
    }

    // Every span with its upper bound (for tests and tuning).
    std::vector<std::tuple<int, int, int, int, double>> bounds() {
        std::vector<std::tuple<int, int, int, int, double>> res;
        if (rack_total == 0 || c.anagram()) return res;
        cross_letters = playable;
        compute_cross_checks();
        all_spans(scratch.spans);
        for (const Span& sp : scratch.spans) {
            res.emplace_back(sp.dir, sp.line, sp.start, sp.end, sp.bound);
        }
        return res;
    }

    void run(int max_exchange) {
        Move pass;
        pass.kind = PASS;
        pass.score = 0;
        pass.row = pass.col = pass.across = pass.len = 0;
        pass.equity = leave_by_used[0];
        const bool pass_last = req.pass_outside_top && top > 0;
        if (!pass_last) add(pass);
        if (rack_total > 0) {
            if (!c.anagram()) cross_letters = playable;
            compute_cross_checks();
            if (c.anagram()) {
                each_line([&] { clabbers_line(); });
            } else if (top <= 0) {
                all_by_spans();
            } else {
                top_spans();
            }
        }
        if (max_exchange > 0) {
            // (the top N do not depend on the order moves are offered in: better() is total)
            double best_exchange = NO_BOUND;
            for (int n = 1; n <= max_exchange; ++n) {
                best_exchange = std::max(best_exchange, best_leave[n]);
            }
            if (top <= 0 || !hopeless(best_exchange)) exchanges(max_exchange);
        }
        if (pass_last && out.empty()) add(pass);
        if (top > 0 || req.sort) rank_moves(out);
    }
};

}  // namespace

bool Config::transpose_symmetric() const {
    if (rows != cols || start_row != start_col) return false;
    for (int r = 0; r < rows; ++r) {
        for (int col = r + 1; col < cols; ++col) {
            const int i = r * cols + col, j = col * cols + r;
            if (letter_mult[i] != letter_mult[j] || word_mult[i] != word_mult[j]) return false;
        }
    }
    return true;
}

bool better(const Move& a, const Move& b) {
    if (a.equity != b.equity) return a.equity > b.equity;
    return key_cmp(a, b) < 0;
}

namespace {

// The table's value of the leave `counts` (total tiles > 0) in *out; false if it is not listed.
bool listed_leave_value(const Leaves* leaves, const int* counts, int size, int total, double* out) {
    const std::vector<uint32_t>& g = leaves->masked;
    uint32_t list = g[0];
    uint64_t index = 0;
    int depth = 0;
    for (int t = 0; t < size; ++t) {
        for (int k = 0; k < counts[t]; ++k) {
            const uint32_t node = mfind(g, list, static_cast<uint32_t>(t));
            if (node == 0) return false;
            index += leaves->before[node];
            if (++depth == total) {
                if (!accepts(g[node]) || index >= leaves->values.size()) return false;
                *out = static_cast<double>(leaves->values[index]);
                return true;
            }
            if (accepts(g[node])) ++index;
            list = arc_index(g[node]);
        }
    }
    return false;
}

// leave_value with the values of unlisted sub-leaves remembered (a sparse table would
// otherwise revisit them once per order of removal).
double leave_value_memo(const Leaves* leaves, std::vector<int>& counts,
                        std::map<std::vector<int>, double>& memo) {
    const int size = static_cast<int>(counts.size());
    int total = 0;
    for (int c : counts) total += c;
    if (total == 0) return 0.0;
    double v = 0.0;
    if (listed_leave_value(leaves, counts.data(), size, total, &v)) return v;
    if (total < 2) return 0.0;
    const auto known = memo.find(counts);
    if (known != memo.end()) return known->second;
    std::vector<int> one(size, 0);
    double sum = 0.0;
    int parts = 0;
    for (int t = 0; t < size; ++t) {
        if (counts[t] == 0) continue;
        counts[t]--;
        one[t] = 1;
        sum += leave_value_memo(leaves, counts, memo) + leave_value_memo(leaves, one, memo);
        counts[t]++;
        one[t] = 0;
        ++parts;
    }
    memo.emplace(counts, sum / parts);
    return sum / parts;
}

}  // namespace

// A leave the table does not hold is valued as Gen::value_unlisted_leaves values it (and
// tessera.lexicon.leaves.sub_leave_prior): the mean over its tiles x of value(leave - x) +
// value(x), summed in tile order.
double leave_value(const Leaves* leaves, const int* counts, int size) {
    if (leaves == nullptr || leaves->masked.empty()) return 0.0;
    int total = 0;
    for (int t = 0; t < size; ++t) total += counts[t];
    double v = 0.0;
    if (total == 0 || listed_leave_value(leaves, counts, size, total, &v)) return v;
    std::vector<int> leave(counts, counts + size);  // unlisted: only now any allocation
    std::map<std::vector<int>, double> memo;
    return leave_value_memo(leaves, leave, memo);
}

std::vector<std::tuple<int, int, int, int, double>> span_bounds(const Config& cfg,
                                                                const uint8_t* cells,
                                                                const std::vector<int>& rack_counts,
                                                                const Leaves* leaves) {
    Request req;
    req.leaves = leaves;
    req.top = 1;
    Gen gen(cfg, cells, rack_counts, req);
    return gen.bounds();
}

CrossChecks cross_checks(const Config& cfg, const uint8_t* cells) {
    const std::vector<int> none(cfg.letters() + 1, 0);
    const Request req;
    Gen gen(cfg, cells, none, req);
    gen.compute_cross_checks();
    return std::move(gen.own);
}

void update_cross_checks(const Config& cfg, const uint8_t* cells, const int* placed, int n,
                         CrossChecks& checks) {
    int on_board = 0;
    for (int i = 0; i < cfg.rows * cfg.cols; ++i) on_board += cells[i] != 0;
    if (on_board == n) {  // the board was empty: every anchor moves
        checks = cross_checks(cfg, cells);
        return;
    }
    const std::vector<int> none(cfg.letters() + 1, 0);
    const Request req;
    Gen gen(cfg, cells, none, req);
    gen.update_cross_checks(placed, n, checks);
}

std::vector<Move> generate(const Config& cfg, const uint8_t* cells,
                           const std::vector<int>& rack_counts, const Request& request) {
    Gen gen(cfg, cells, rack_counts, request);
    gen.run(request.max_exchange);
    return std::move(gen.out);
}

namespace {

// The leaves in the list at header h of a masked graph (build_masked), filling `before` for
// its nodes and those below; `total` memoises each list's count (-1: not yet).
uint32_t index_lists(const std::vector<uint32_t>& m, uint32_t h, std::vector<uint32_t>& before,
                     std::vector<int64_t>& total) {
    if (h == 0) return 0;
    if (total[h] >= 0) return static_cast<uint32_t>(total[h]);
    uint32_t n = 0;
    for (uint32_t i = h + 2;; ++i) {
        before[i] = n;
        n += (accepts(m[i]) ? 1 : 0) + index_lists(m, arc_index(m[i]), before, total);
        if (is_end(m[i])) break;
    }
    total[h] = n;
    return n;
}

}  // namespace

Leaves make_leaves(std::vector<uint32_t> kwg, std::vector<float> values) {
    if (kwg.size() < 2) throw std::invalid_argument("leave graph: a KWG needs at least 2 nodes");
    const std::string problem = kwg::check(kwg::View{kwg.data(), kwg.size()});
    if (!problem.empty()) throw std::invalid_argument("leave graph: " + problem);
    Leaves out;
    out.masked = build_masked(kwg);
    out.before.assign(out.masked.size(), 0);
    std::vector<int64_t> list_total(out.masked.size(), -1);
    const uint32_t total = index_lists(out.masked, out.masked[0], out.before, list_total);
    if (total != values.size()) {
        throw std::invalid_argument("leave table: " + std::to_string(values.size()) +
                                    " values for " + std::to_string(total) + " leaves");
    }
    for (const float v : values) {
        // (bounds are sorted into buckets by value: a NaN or an infinity has no bucket)
        if (!std::isfinite(v)) throw std::invalid_argument("leave table: a value is not finite");
    }
    out.values = std::move(values);
    return out;
}

}  // namespace tessera::movegen

// -- Python binding ------------------------------------------------------------------------------

namespace {

using tessera::movegen::Config;
using tessera::movegen::Generator;
using tessera::movegen::Move;
using tessera::movegen::Request;
using tessera::movegen::copy_buffer;

void check_graph(const std::vector<uint32_t>& g, const char* what) {
    if (g.size() < 2) throw py::value_error(std::string(what) + ": a KWG needs at least 2 nodes");
    const std::string problem = tessera::kwg::check(tessera::kwg::View{g.data(), g.size()});
    if (!problem.empty()) throw py::value_error(std::string(what) + ": " + problem);
}


class MoveResult {
  public:
    explicit MoveResult(std::vector<Move> moves) : moves_(std::move(moves)) {}
    size_t size() const { return moves_.size(); }
    const Move& at(long i) const {
        if (i < 0) i += static_cast<long>(moves_.size());
        if (i < 0 || static_cast<size_t>(i) >= moves_.size()) {
            throw py::index_error("move index out of range");
        }
        return moves_[static_cast<size_t>(i)];
    }
    py::tuple move(long i) const {
        const Move& m = at(i);
        py::tuple word(m.len);
        for (int k = 0; k < m.len; ++k) word[k] = py::int_(m.word[k]);
        return py::make_tuple(static_cast<int>(m.kind), static_cast<int>(m.row),
                              static_cast<int>(m.col), m.across != 0, word, m.score);
    }
    double equity(long i) const { return at(i).equity; }
    std::vector<double> equities() const {
        std::vector<double> out;
        out.reserve(moves_.size());
        for (const Move& m : moves_) out.push_back(m.equity);
        return out;
    }
    std::vector<int> scores() const {
        std::vector<int> out;
        out.reserve(moves_.size());
        for (const Move& m : moves_) out.push_back(m.score);
        return out;
    }

  private:
    std::vector<Move> moves_;
};

// The contents of a bytes object, without a copy (it is immutable, and the caller holds it).
std::string_view bytes_view(const py::bytes& b) {
    char* data = nullptr;
    Py_ssize_t len = 0;
    if (PyBytes_AsStringAndSize(b.ptr(), &data, &len) != 0) throw py::error_already_set();
    return {data, static_cast<size_t>(len)};
}

// The board as tile ids (bytes, row-major) and the rack as counts per tile id, checked.
void check_position(const Config& cfg, std::string_view board, const std::vector<int>& rack) {
    if (static_cast<int>(board.size()) != cfg.rows * cfg.cols) {
        throw py::value_error("the board has " + std::to_string(board.size()) +
                              " squares; the layout has " + std::to_string(cfg.rows * cfg.cols));
    }
    const int n = cfg.letters();
    // a tile is 0 (empty) or a letter 1..n, 0x80 set for a blank: flagged without a branch
    // per square, then found for the message
    bool bad = false;
    for (unsigned char t : board) bad |= (t & 0x7F) > n || t == 0x80;
    if (bad) {
        for (unsigned char t : board) {
            if ((t & 0x7F) > n || t == 0x80) {
                throw py::value_error("tile " + std::to_string(t) +
                                      " on the board is not a letter");
            }
        }
    }
    if (static_cast<int>(rack.size()) != n + 1) {
        throw py::value_error("rack counts need " + std::to_string(n + 1) + " entries");
    }
    int total = 0;
    for (int k : rack) {
        if (k < 0) throw py::value_error("negative rack count");
        total += k;
    }
    if (total > tessera::movegen::MAX_RACK) {
        throw py::value_error("racks of at most " + std::to_string(tessera::movegen::MAX_RACK) +
                              " tiles");
    }
}

MoveResult generate_py(const Generator& gen, const py::bytes& cells, const std::vector<int>& rack,
                       int max_exchange, int top, bool mirrors, bool sort) {
    const std::string_view board = bytes_view(cells);
    check_position(gen.config(), board, rack);
    if (top < 0) throw py::value_error("top must be 0 (all) or a positive number");
    int total = 0;
    for (int k : rack) total += k;
    Request req;
    req.leaves = gen.leaves();
    req.max_exchange = std::min(max_exchange, total);
    req.top = top;
    req.mirrors = mirrors;
    req.sort = sort;
    std::vector<Move> moves;
    {
        py::gil_scoped_release release;
        moves = tessera::movegen::generate(
            gen.config(), reinterpret_cast<const uint8_t*>(board.data()), rack, req);
    }
    return MoveResult(std::move(moves));
}

// The same with the rack as its tiles (bytes of tile ids, 0 a blank), counted here.
MoveResult generate_tiles_py(const Generator& gen, const py::bytes& cells, const py::bytes& tiles,
                             int max_exchange, int top, bool mirrors, bool sort) {
    const std::string_view rack_tiles = bytes_view(tiles);
    if (rack_tiles.size() > static_cast<size_t>(tessera::movegen::MAX_RACK)) {
        throw py::value_error("racks of at most " + std::to_string(tessera::movegen::MAX_RACK) +
                              " tiles");
    }
    const int n = gen.config().letters();
    std::vector<int> rack(n + 1, 0);
    for (const char c : rack_tiles) {
        const int t = static_cast<unsigned char>(c);
        if (t > n) throw py::value_error("tile " + std::to_string(t) + " is not a rack tile");
        ++rack[t];
    }
    return generate_py(gen, cells, rack, max_exchange, top, mirrors, sort);
}

std::vector<std::tuple<int, int, int, int, double>> bounds_py(const Generator& gen,
                                                              const py::bytes& cells,
                                                              const std::vector<int>& rack) {
    const std::string_view board = bytes_view(cells);
    check_position(gen.config(), board, rack);
    return tessera::movegen::span_bounds(
        gen.config(), reinterpret_cast<const uint8_t*>(board.data()), rack, gen.leaves());
}

double leave_py(const Generator& gen, const std::vector<int>& counts) {
    if (static_cast<int>(counts.size()) != gen.config().letters() + 1) {
        throw py::value_error("leave counts need one entry per tile id");
    }
    return tessera::movegen::leave_value(gen.leaves(), counts.data(),
                                         static_cast<int>(counts.size()));
}

}  // namespace

namespace tessera::movegen {

std::shared_ptr<const Leaves> leaves_from_buffers(const py::buffer& nodes,
                                                  const py::buffer& values) {
    try {
        return std::make_shared<const Leaves>(make_leaves(
            copy_buffer<uint32_t>(nodes, "leave graph"), copy_buffer<float>(values, "leave values")));
    } catch (const std::invalid_argument& exc) {
        throw py::value_error(exc.what());
    }
}

namespace {

uint64_t splitmix64(uint64_t& state) {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// The keys of the words below `list` of the alphagram DAWG, the path so far worth `key`.
void word_keys(const std::vector<uint32_t>& g, uint32_t list, uint64_t key,
               const uint64_t* letter_key, int letters, std::vector<uint64_t>& out) {
    if (list == 0) return;
    for (uint32_t i = list;; ++i) {
        const uint32_t node = g[i];
        const uint32_t t = tile(node);
        if (t >= 1 && t <= static_cast<uint32_t>(letters)) {
            const uint64_t k = key + letter_key[t];
            if (accepts(node)) out.push_back(k);
            word_keys(g, arc_index(node), k, letter_key, letters, out);
        }
        if (is_end(node)) break;
    }
}

}  // namespace

void WordSets::add(uint64_t key) {
    const uint64_t h = key * 0x9E3779B97F4A7C15ull;
    uint64_t* block = bits.data() + ((h >> shift) << 3);
    for (int i = 0; i < 4; ++i) {
        const uint64_t bit = (h >> (9 * i)) & 511;
        block[bit >> 6] |= uint64_t(1) << (bit & 63);
    }
}

void WordSets::build(const std::vector<uint32_t>& alpha, int letters) {
    const std::clock_t started = std::clock();
    uint64_t state = 0x7E55E2A;  // fixed: the same keys in every process
    for (int t = 0; t <= MAX_LETTERS; ++t) letter_key[t] = splitmix64(state);
    std::vector<uint64_t> keys;
    word_keys(alpha, kwg::dawg_root(alpha.data()), 0, letter_key, letters, keys);
    // 16 bits a word: blocks of 512 bits, a power of two of them (two at least: a shift by 64
    // is undefined)
    int log_blocks = 1;
    while ((uint64_t(512) << log_blocks) < keys.size() * 16) ++log_blocks;
    shift = 64 - log_blocks;
    bits.assign(size_t(8) << log_blocks, 0);
    for (const uint64_t k : keys) add(k);
    build_seconds = static_cast<double>(std::clock() - started) / CLOCKS_PER_SEC;
}

Generator::Generator(const py::buffer& kwg, const py::object& alpha, bool clabbers, int rows,
                     int cols, std::vector<int> letter_mult, std::vector<int> word_mult,
                     int start_row, int start_col, std::vector<int> values,
                     std::vector<int> bingo, int min_word_length, int min_first_tiles,
                     bool cover_start, const py::object& leave_nodes,
                     const py::object& leave_values) {
    if (rows < 1 || cols < 1 || rows > MAX_DIM || cols > MAX_DIM) {
        throw py::value_error("boards must be 1.." + std::to_string(MAX_DIM) + " squares a side");
    }
    if (static_cast<int>(letter_mult.size()) != rows * cols ||
        static_cast<int>(word_mult.size()) != rows * cols) {
        throw py::value_error("premium tables must have rows*cols entries");
    }
    if (values.size() < 2 || values.size() > MAX_LETTERS + 1) {
        throw py::value_error("alphabets of 1.." + std::to_string(MAX_LETTERS) +
                              " letters are supported");
    }
    cfg_.kwg = copy_buffer<uint32_t>(kwg, "word graph");
    check_graph(cfg_.kwg, "word graph");
    cfg_.kwg = build_masked(cfg_.kwg);
    cfg_.clabbers = clabbers;
    if (clabbers && alpha.is_none()) {
        throw py::value_error("Clabbers needs the alphagram graph");
    }
    if (!alpha.is_none()) {
        cfg_.alpha = copy_buffer<uint32_t>(alpha.cast<py::buffer>(), "alphagram graph");
        check_graph(cfg_.alpha, "alphagram graph");
        cfg_.words.build(cfg_.alpha, static_cast<int>(values.size()) - 1);
    }
    cfg_.rows = rows;
    cfg_.cols = cols;
    cfg_.letter_mult = std::move(letter_mult);
    cfg_.word_mult = std::move(word_mult);
    cfg_.start_row = start_row;
    cfg_.start_col = start_col;
    cfg_.values = std::move(values);
    bingo.resize(MAX_RACK + 1, 0);
    cfg_.bingo = std::move(bingo);
    cfg_.min_word_length = min_word_length;
    cfg_.min_first_tiles = min_first_tiles;
    cfg_.cover_start = cover_start;
    if (!leave_nodes.is_none()) {
        leaves_ = leaves_from_buffers(leave_nodes.cast<py::buffer>(),
                                      leave_values.cast<py::buffer>());
    }
}

}  // namespace tessera::movegen

void register_movegen(py::module_& m) {
    py::class_<MoveResult>(m, "MoveResult", "Generated moves, ranked (a C++ buffer).")
        .def("__len__", &MoveResult::size)
        .def("move", &MoveResult::move, py::arg("index"),
             "(kind, row, col, across, word tiles, score); kind 0 play, 1 exchange, 2 pass.")
        .def("equity", &MoveResult::equity, py::arg("index"))
        .def("equities", &MoveResult::equities)
        .def("scores", &MoveResult::scores);
    py::class_<Generator>(m, "MoveGenerator",
                          "Move generator for one lexicon, rules and leave table.")
        .def(py::init<const py::buffer&, const py::object&, bool, int, int, std::vector<int>,
                      std::vector<int>, int, int, std::vector<int>, std::vector<int>, int, int,
                      bool, const py::object&, const py::object&>(),
             py::arg("kwg"), py::arg("alphagrams"), py::arg("clabbers"), py::arg("rows"), py::arg("cols"),
             py::arg("letter_mult"), py::arg("word_mult"), py::arg("start_row"),
             py::arg("start_col"), py::arg("values"), py::arg("bingo"),
             py::arg("min_word_length"), py::arg("min_first_tiles"), py::arg("cover_start"),
             py::arg("leave_nodes"), py::arg("leave_values"))
        .def("generate", &generate_tiles_py, py::arg("cells"), py::arg("rack"),
             py::arg("max_exchange"), py::arg("top"), py::arg("mirrors") = true,
             py::arg("sort") = true,
             "Moves of a rack (bytes of tile ids, 0 a blank; or counts per tile id) on a board "
             "(bytes, row-major); with mirrors=False an empty board that is its own mirror image "
             "lists plays across only; with sort=False and top 0 the moves come in the order "
             "found, not ranked.")
        .def("generate", &generate_py, py::arg("cells"), py::arg("rack"),
             py::arg("max_exchange"), py::arg("top"), py::arg("mirrors") = true,
             py::arg("sort") = true)
        .def("span_bounds", &bounds_py, py::arg("cells"), py::arg("rack"),
             "(direction 0 across / 1 down, line, first square, last square, upper bound) of "
             "every span a play could cover: no play covering it is worth more (for tests).")
        .def("leave", &leave_py, py::arg("counts"),
             "The leave value of tiles given as counts per tile id.")
        .def_property_readonly(
            "word_filter",
            [](const Generator& g) {
                const tessera::movegen::WordSets& w = g.config().words;
                return py::make_tuple(w.bits.size() * sizeof(uint64_t), w.build_seconds);
            },
            "(bytes, CPU seconds to build) of the index the generator builds from the "
            "alphagram graph when it is made (a filter of the words' letter multisets); "
            "(0, 0.0) without the alphagram graph.");
}
