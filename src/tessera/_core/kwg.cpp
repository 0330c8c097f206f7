// KWG word graphs: building (DAWG + GADDAG with shared, merged sibling lists), validation,
// and the hot queries. The pure-Python reference is tessera/lexicon/kwg.py; both builders
// follow the same algorithm so they produce byte-identical arrays.
#include "kwg.hpp"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <stdexcept>

namespace py = pybind11;

namespace tessera::kwg {

namespace {

constexpr size_t MAX_DEPTH = 255;  // no word is longer; bounds recursion on hostile files
// Paths (prefixes) a walk of the whole DAWG / GADDAG may take. A minimised graph can spell
// exponentially many paths in few nodes, so a hostile file could make every walk that lists
// words (or searches patterns) run for ever; real lists stay far below (ENABLE: 0.4 M and
// 4 M). The same bounds are in the Python reference, tessera/lexicon/kwg.py.
constexpr uint64_t MAX_DAWG_PATHS = 1ull << 28;
constexpr uint64_t MAX_GADDAG_PATHS = 1ull << 32;

uint64_t hash_list(const uint32_t* p, size_t n) {
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; ++i) {
        h ^= p[i];
        h *= 1099511628211ull;
        h ^= h >> 29;
    }
    return h;
}

// Hash-consing of sibling lists: each distinct list is stored once in `nodes`.
class Builder {
  public:
    Builder() : nodes_(2, 0), table_(1u << 16, 0), lens_(1u << 16, 0) {}

    // Store a finished list (end bit not yet set) and return where it starts; 0 if empty.
    uint32_t intern(std::vector<uint32_t>& arcs) {
        if (arcs.empty()) return 0;
        arcs.back() |= END_BIT;
        const size_t n = arcs.size();
        const uint64_t h = hash_list(arcs.data(), n);
        size_t mask = table_.size() - 1;
        size_t slot = h & mask;
        while (table_[slot] != 0) {
            if (lens_[slot] == n &&
                std::memcmp(&nodes_[table_[slot]], arcs.data(), n * sizeof(uint32_t)) == 0) {
                return table_[slot];
            }
            slot = (slot + 1) & mask;
        }
        const size_t pos = nodes_.size();
        if (pos + n - 1 > ARC_MASK) {
            throw std::length_error("word graph needs more than 2^22 nodes (the KWG limit)");
        }
        nodes_.insert(nodes_.end(), arcs.begin(), arcs.end());
        table_[slot] = static_cast<uint32_t>(pos);
        lens_[slot] = static_cast<uint32_t>(n);
        if (++used_ * 2 > table_.size()) grow();
        return static_cast<uint32_t>(pos);
    }

    // Add sorted, unique, non-empty tile strings as a trie minimised bottom-up; return the
    // root list. Each open state is finished as soon as no later string can extend it.
    uint32_t add_sorted(const std::vector<std::string>& strings) {
        std::vector<std::vector<uint32_t>> open(1);
        const std::string* prev = nullptr;
        for (const std::string& s : strings) {
            size_t common = 0;
            if (prev != nullptr) {
                const size_t limit = std::min(prev->size(), s.size());
                while (common < limit && (*prev)[common] == s[common]) ++common;
                close_to(open, prev->size(), common);
            }
            if (open.size() < s.size() + 1) open.resize(s.size() + 1);
            for (size_t j = common; j < s.size(); ++j) {
                open[j].push_back(static_cast<uint32_t>(static_cast<uint8_t>(s[j])) << TILE_SHIFT);
            }
            open[s.size() - 1].back() |= ACCEPTS_BIT;
            prev = &s;
        }
        if (prev != nullptr) close_to(open, prev->size(), 0);
        return intern(open[0]);
    }

    std::vector<uint32_t>& nodes() { return nodes_; }

  private:
    void close_to(std::vector<std::vector<uint32_t>>& open, size_t depth, size_t keep) {
        for (size_t d = depth; d > keep; --d) {
            const uint32_t child = intern(open[d]);
            open[d].clear();
            open[d - 1].back() |= child;
        }
    }

    void grow() {
        std::vector<uint32_t> old_table(table_.size() * 2, 0), old_lens(lens_.size() * 2, 0);
        old_table.swap(table_);
        old_lens.swap(lens_);
        const size_t mask = table_.size() - 1;
        for (size_t i = 0; i < old_table.size(); ++i) {
            if (old_table[i] == 0) continue;
            size_t slot = hash_list(&nodes_[old_table[i]], old_lens[i]) & mask;
            while (table_[slot] != 0) slot = (slot + 1) & mask;
            table_[slot] = old_table[i];
            lens_[slot] = old_lens[i];
        }
    }

    std::vector<uint32_t> nodes_;
    std::vector<uint32_t> table_;  // list start, 0 = free slot
    std::vector<uint32_t> lens_;
    size_t used_ = 0;
};

void sort_unique(std::vector<std::string>& v) {
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
}

}  // namespace

std::vector<uint32_t> build(std::vector<std::string> words, bool with_dawg, bool with_gaddag) {
    words.erase(std::remove_if(words.begin(), words.end(),
                               [](const std::string& w) { return w.empty(); }),
                words.end());
    sort_unique(words);
    Builder b;
    uint32_t dawg = 0, gaddag = 0;
    if (with_dawg) dawg = b.add_sorted(words);
    if (with_gaddag) {
        std::vector<std::string> strings;
        size_t total = 0;
        for (const auto& w : words) total += w.size();
        strings.reserve(total);
        for (const auto& w : words) {
            const size_t n = w.size();
            for (size_t i = 1; i <= n; ++i) {
                std::string s(w.rend() - static_cast<std::ptrdiff_t>(i), w.rend());
                if (i < n) {
                    s.push_back(static_cast<char>(SEPARATOR));
                    s.append(w, i, std::string::npos);
                }
                strings.push_back(std::move(s));
            }
        }
        sort_unique(strings);
        gaddag = b.add_sorted(strings);
    }
    std::vector<uint32_t>& nodes = b.nodes();
    nodes[0] = END_BIT | dawg;
    nodes[1] = END_BIT | gaddag;
    return std::move(nodes);
}

std::string check(View g) {
    const size_t n = g.size;
    if (n < 2) return "a KWG needs at least 2 nodes (the DAWG and GADDAG root pointers); found " +
                      std::to_string(n);
    // ok_from[i]: a list starting at i stays inside the array and is sorted by tile.
    std::vector<uint8_t> ok_from(n, 0);
    for (size_t i = n; i-- > 0;) {
        const uint32_t node = g.nodes[i];
        if (arc_index(node) >= n) {
            return "node " + std::to_string(i) + ": arc index " + std::to_string(arc_index(node)) +
                   " is past the end (" + std::to_string(n) + " nodes)";
        }
        ok_from[i] = is_end(node) || (i + 1 < n && tile(node) < tile(g.nodes[i + 1]) && ok_from[i + 1]);
    }
    // Depth-first over reachable lists: each must be well formed, and there must be no cycle.
    std::vector<uint8_t> state(n, 0);  // 0 unseen, 1 on the current path, 2 done
    std::vector<uint16_t> height(n, 0);
    std::vector<uint64_t> paths(n, 0);  // paths below a list (saturating)
    struct Frame {
        uint32_t list, pos;
        bool done;
    };
    std::vector<Frame> stack;
    const uint32_t roots[2] = {arc_index(g.nodes[0]), arc_index(g.nodes[1])};
    for (int r = 0; r < 2; ++r) {
        const uint32_t root = roots[r];
        if (root == 0 || state[root] == 2) continue;
        stack.push_back({root, root, false});
        state[root] = 1;
        while (!stack.empty()) {
            Frame& f = stack.back();
            if (f.done) {
                // Longest path below this list, so recursion in the queries stays bounded.
                size_t h = 1;
                uint64_t below = 0;
                for (uint32_t i = f.list;; ++i) {
                    const uint32_t c = arc_index(g.nodes[i]);
                    if (c != 0) h = std::max<size_t>(h, height[c] + 1u);
                    below = std::min(MAX_GADDAG_PATHS + 1, below + 1 + (c != 0 ? paths[c] : 0));
                    if (is_end(g.nodes[i])) break;
                }
                paths[f.list] = below;
                if (h > MAX_DEPTH) {
                    return "paths longer than " + std::to_string(MAX_DEPTH) + " tiles";
                }
                height[f.list] = static_cast<uint16_t>(h);
                state[f.list] = 2;
                stack.pop_back();
                continue;
            }
            if (f.pos == f.list && !ok_from[f.list]) {
                return "the sibling list at node " + std::to_string(f.list) +
                       " is not sorted by tile or runs past the end of the array";
            }
            const uint32_t node = g.nodes[f.pos];
            if (is_end(node)) {
                f.done = true;
            } else {
                ++f.pos;
            }
            const uint32_t child = arc_index(node);
            if (child == 0 || state[child] == 2) continue;
            if (state[child] == 1) {
                return "the graph has a cycle through node " + std::to_string(child);
            }
            stack.push_back({child, child, false});  // invalidates f
            state[child] = 1;
        }
        const uint64_t limit = r == 0 ? MAX_DAWG_PATHS : MAX_GADDAG_PATHS;
        if (paths[root] > limit) {
            return std::string(r == 0 ? "the DAWG" : "the GADDAG") + " spells more than " +
                   std::to_string(limit) +
                   " paths, far more than any word list (a graph made to explode when walked)";
        }
    }
    return "";
}

namespace {

View view_of(const py::buffer& buf) {
    py::buffer_info info = buf.request();
    const size_t bytes = static_cast<size_t>(info.size) * static_cast<size_t>(info.itemsize);
    if (bytes % 4 != 0) throw py::value_error("a KWG buffer must hold whole uint32 nodes");
    if (info.ndim > 1) throw py::value_error("a KWG buffer must be one-dimensional");
    return View{static_cast<const uint32_t*>(info.ptr), bytes / 4};
}

void require_list(View g, uint32_t list) {
    if (list >= g.size) throw py::value_error("list index past the end of the KWG");
}

bool walk(View g, uint32_t list, const std::string& s) {
    if (s.empty()) return false;
    uint32_t node = 0;
    for (unsigned char c : s) {
        node = find(g, list, c);
        if (node == 0) return false;
        list = arc_index(g.nodes[node]);
    }
    return accepts(g.nodes[node]);
}

uint64_t count_from(View g, uint32_t list, std::vector<int64_t>& memo) {
    if (list == 0) return 0;
    if (memo[list] >= 0) return static_cast<uint64_t>(memo[list]);
    uint64_t total = 0;
    for (uint32_t i = list;; ++i) {
        const uint32_t node = g.nodes[i];
        total += accepts(node) ? 1 : 0;
        total += count_from(g, arc_index(node), memo);
        if (is_end(node)) break;
    }
    memo[list] = static_cast<int64_t>(total);
    return total;
}

void words_from(View g, uint32_t list, std::string& prefix, bool skip_separator,
                std::vector<std::string>& out) {
    if (list == 0) return;
    for (uint32_t i = list;; ++i) {
        const uint32_t node = g.nodes[i];
        const uint32_t t = tile(node);
        if (!(skip_separator && t == SEPARATOR)) {
            prefix.push_back(static_cast<char>(t));
            if (accepts(node)) out.push_back(prefix);
            words_from(g, arc_index(node), prefix, skip_separator, out);
            prefix.pop_back();
        }
        if (is_end(node)) break;
    }
}

struct Anagrammer {
    View g;
    std::vector<int> counts;  // per letter tile id; index 0 = blanks
    size_t min_len;
    bool exact;
    size_t rack_size;
    std::string prefix;
    std::vector<std::string> out;

    void go(uint32_t list) {
        if (list == 0) return;
        for (uint32_t i = list;; ++i) {
            const uint32_t node = g.nodes[i];
            const uint32_t t = tile(node);
            if (t != SEPARATOR) {
                int* source = nullptr;
                char shown = static_cast<char>(t);
                if (t < counts.size() && counts[t] > 0) {
                    source = &counts[t];
                } else if (counts[0] > 0) {
                    source = &counts[0];
                    shown = static_cast<char>(t | 0x80);
                }
                if (source != nullptr) {
                    --*source;
                    prefix.push_back(shown);
                    if (accepts(node) && prefix.size() >= min_len &&
                        (!exact || prefix.size() == rack_size)) {
                        out.push_back(prefix);
                    }
                    if (prefix.size() < rack_size) go(arc_index(node));
                    prefix.pop_back();
                    ++*source;
                }
            }
            if (is_end(node)) break;
        }
    }
};

py::list to_bytes_list(const std::vector<std::string>& v) {
    py::list out(v.size());
    for (size_t i = 0; i < v.size(); ++i) out[i] = py::bytes(v[i]);
    return out;
}

}  // namespace
}  // namespace tessera::kwg

void register_kwg(py::module_& m) {
    using namespace tessera::kwg;
    m.def(
        "kwg_build",
        [](std::vector<std::string> words, bool dawg, bool gaddag) {
            std::vector<uint32_t> nodes;
            {
                py::gil_scoped_release release;
                nodes = build(std::move(words), dawg, gaddag);
            }
            std::string out(nodes.size() * 4, '\0');
            for (size_t i = 0; i < nodes.size(); ++i) {
                const uint32_t v = nodes[i];
                out[4 * i] = static_cast<char>(v & 0xff);
                out[4 * i + 1] = static_cast<char>((v >> 8) & 0xff);
                out[4 * i + 2] = static_cast<char>((v >> 16) & 0xff);
                out[4 * i + 3] = static_cast<char>((v >> 24) & 0xff);
            }
            return py::bytes(out);
        },
        py::arg("words"), py::arg("dawg") = true, py::arg("gaddag") = true,
        "Build a KWG from tile strings; returns the little-endian node array as bytes.");
    m.def(
        "kwg_check", [](const py::buffer& buf) { return check(view_of(buf)); }, py::arg("nodes"),
        "'' if the node array is a well-formed KWG, else what is wrong with it.");
    m.def(
        "kwg_accepts",
        [](const py::buffer& buf, uint32_t list, const std::string& tiles) {
            View g = view_of(buf);
            require_list(g, list);
            return walk(g, list, tiles);
        },
        py::arg("nodes"), py::arg("list"), py::arg("tiles"),
        "True if the tile string is a complete path from the sibling list `list`.");
    m.def(
        "kwg_count",
        [](const py::buffer& buf, uint32_t list) {
            View g = view_of(buf);
            require_list(g, list);
            std::vector<int64_t> memo(g.size, -1);
            return count_from(g, list, memo);
        },
        py::arg("nodes"), py::arg("list"), "Number of accepting paths from a list.");
    m.def(
        "kwg_verify",
        [](const py::buffer& buf, std::vector<std::string> words) -> std::string {
            View g = view_of(buf);
            py::gil_scoped_release release;
            words.erase(std::remove_if(words.begin(), words.end(),
                                       [](const std::string& w) { return w.empty(); }),
                        words.end());
            std::sort(words.begin(), words.end());
            words.erase(std::unique(words.begin(), words.end()), words.end());
            const uint32_t droot = dawg_root(g.nodes), groot = gaddag_root(g.nodes);
            uint64_t entries = 0;
            std::string entry;
            for (const std::string& w : words) {
                if (!walk(g, droot, w)) return "the DAWG lacks word #" + std::to_string(&w - &words[0]);
                const size_t n = w.size();
                for (size_t i = 1; i <= n; ++i) {
                    entry.assign(w.rend() - static_cast<std::ptrdiff_t>(i), w.rend());
                    if (i < n) {
                        entry.push_back(static_cast<char>(SEPARATOR));
                        entry.append(w, i, std::string::npos);
                    }
                    if (!walk(g, groot, entry)) {
                        return "the GADDAG lacks entry " + std::to_string(i) + " of word #" +
                               std::to_string(&w - &words[0]);
                    }
                    ++entries;
                }
            }
            std::vector<int64_t> memo(g.size, -1);
            const uint64_t in_dawg = count_from(g, droot, memo);
            if (in_dawg != words.size()) {
                return "the DAWG holds " + std::to_string(in_dawg) + " words, not " +
                       std::to_string(words.size());
            }
            const uint64_t in_gaddag = count_from(g, groot, memo);
            if (in_gaddag != entries) {
                return "the GADDAG holds " + std::to_string(in_gaddag) + " entries, not " +
                       std::to_string(entries);
            }
            return "";
        },
        py::arg("nodes"), py::arg("words"),
        "'' if a checked KWG holds exactly these words in its DAWG and exactly their entries "
        "in its GADDAG (every one walked), else the first difference (words sorted, unique).");
    m.def(
        "kwg_word_counts",
        [](const py::buffer& buf) {
            View g = view_of(buf);
            std::vector<int64_t> memo(g.size, -1);
            std::vector<uint32_t> out(g.size, 0);
            std::vector<uint8_t> seen(g.size, 0);
            // Only lists reachable from the DAWG root (which kwg_check has vetted).
            std::function<void(uint32_t)> fill = [&](uint32_t list) {
                if (list == 0 || seen[list]) return;
                seen[list] = 1;
                for (uint32_t i = list;; ++i) {
                    const uint32_t node = g.nodes[i];
                    const uint64_t c = (accepts(node) ? 1u : 0u) + count_from(g, arc_index(node), memo);
                    out[i] = static_cast<uint32_t>(std::min<uint64_t>(c, 0xffffffffu));
                    fill(arc_index(node));
                    if (is_end(node)) break;
                }
            };
            if (g.size >= 2) fill(dawg_root(g.nodes));
            return py::bytes(reinterpret_cast<const char*>(out.data()), out.size() * 4);
        },
        py::arg("nodes"),
        "Per node reachable from the DAWG root, the number of words through it (its own plus "
        "those below), as native uint32; 0 elsewhere. Call on checked graphs only.");
    m.def(
        "kwg_words",
        [](const py::buffer& buf, uint32_t list, bool skip_separator) {
            View g = view_of(buf);
            require_list(g, list);
            std::vector<std::string> out;
            std::string prefix;
            words_from(g, list, prefix, skip_separator, out);
            return to_bytes_list(out);
        },
        py::arg("nodes"), py::arg("list"), py::arg("skip_separator") = false,
        "Every accepting path from a list, in order, as tile strings.");
    m.def(
        "kwg_anagrams",
        [](const py::buffer& buf, uint32_t list, std::vector<int> counts, size_t min_len,
           bool exact) {
            View g = view_of(buf);
            require_list(g, list);
            if (counts.empty()) counts.push_back(0);
            Anagrammer a{g, std::move(counts), min_len, exact, 0, {}, {}};
            for (int c : a.counts) a.rack_size += static_cast<size_t>(std::max(c, 0));
            a.go(list);
            return to_bytes_list(a.out);
        },
        py::arg("nodes"), py::arg("list"), py::arg("counts"), py::arg("min_len") = 1,
        py::arg("exact") = false,
        "Words spelled from a rack given as counts per tile id (index 0 = blanks); blank-made "
        "letters carry bit 0x80.");
}
