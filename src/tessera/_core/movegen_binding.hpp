// The move generator as Python holds it (tessera._core.MoveGenerator), shared with the static
// engine (selfplay.cpp), which ranks and plays with the very same generator.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "movegen.hpp"

namespace tessera::movegen {

namespace py = pybind11;

// A flat Python buffer of 4-byte items (KWG nodes, float values) copied into a vector.
template <typename T>
std::vector<T> copy_buffer(const py::buffer& buf, const char* what) {
    py::buffer_info info = buf.request();
    const size_t bytes = static_cast<size_t>(info.size) * static_cast<size_t>(info.itemsize);
    if (bytes % sizeof(T) != 0 || info.ndim > 1) {
        throw py::value_error(std::string(what) + ": expected a flat buffer of 4-byte items");
    }
    std::vector<T> out(bytes / sizeof(T));
    if (!out.empty()) std::memcpy(out.data(), info.ptr, bytes);
    return out;
}

// A KLV2 table from Python buffers (nodes as uint32, values as float32); ValueError if bad.
std::shared_ptr<const Leaves> leaves_from_buffers(const py::buffer& nodes, const py::buffer& values);

class Generator {
  public:
    Generator(const py::buffer& kwg, const py::object& alpha, bool clabbers, int rows, int cols,
              std::vector<int> letter_mult, std::vector<int> word_mult, int start_row,
              int start_col, std::vector<int> values, std::vector<int> bingo, int min_word_length,
              int min_first_tiles, bool cover_start, const py::object& leave_nodes,
              const py::object& leave_values);

    const Config& config() const { return cfg_; }
    const Leaves* leaves() const { return leaves_.get(); }

  private:
    Config cfg_;
    std::shared_ptr<const Leaves> leaves_;
};

}  // namespace tessera::movegen
