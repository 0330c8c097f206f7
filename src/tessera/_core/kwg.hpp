// KWG word graphs: the node layout shared by the builder, the queries and the move generator.
//
// A KWG is an array of little-endian uint32 nodes (wolges' Node22 layout):
//   bits 0-21  arc index: where this node's child sibling list starts (0 = no children)
//   bit  22    end of sibling list
//   bit  23    accepts: the path ending with this node's tile is a word
//   bits 24-31 tile (letters from 1; tile 0 is the GADDAG separator)
// Node 0's arc index is the DAWG root list, node 1's the GADDAG root list.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace tessera::kwg {

constexpr uint32_t ARC_MASK = (1u << 22) - 1;
constexpr uint32_t END_BIT = 1u << 22;
constexpr uint32_t ACCEPTS_BIT = 1u << 23;
constexpr int TILE_SHIFT = 24;
constexpr uint8_t SEPARATOR = 0;

inline uint32_t tile(uint32_t node) { return node >> TILE_SHIFT; }
inline bool accepts(uint32_t node) { return (node & ACCEPTS_BIT) != 0; }
inline bool is_end(uint32_t node) { return (node & END_BIT) != 0; }
inline uint32_t arc_index(uint32_t node) { return node & ARC_MASK; }
inline uint32_t dawg_root(const uint32_t* nodes) { return arc_index(nodes[0]); }
inline uint32_t gaddag_root(const uint32_t* nodes) { return arc_index(nodes[1]); }

// A read-only view of a node array (owned elsewhere: a memory map, a bytes object, ...).
struct View {
    const uint32_t* nodes;
    size_t size;
};

// The node (index) in the sibling list starting at `list` whose tile is `t`, or 0 if none.
// Lists are sorted by tile, so the scan stops early.
inline uint32_t find(View g, uint32_t list, uint32_t t) {
    if (list == 0) return 0;
    for (uint32_t i = list;; ++i) {
        uint32_t n = g.nodes[i];
        uint32_t nt = tile(n);
        if (nt == t) return i;
        if (nt > t || is_end(n)) return 0;
    }
}

// Build a KWG from tile strings (each byte one tile). Either half may be left out, in which
// case its root pointer is 0 (an empty graph). Strings are sorted and deduplicated here.
// Throws std::length_error if the graph needs more than 2^22 nodes.
std::vector<uint32_t> build(std::vector<std::string> words, bool with_dawg, bool with_gaddag);

// An empty string if the array is a well-formed KWG, else what is wrong with it.
std::string check(View g);

}  // namespace tessera::kwg
