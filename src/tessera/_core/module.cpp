// Entry point of the compiled core: each part registers its functions here.
#include <pybind11/pybind11.h>

namespace py = pybind11;

void register_kwg(py::module_& m);  // kwg.cpp

PYBIND11_MODULE(_core, m) {
    m.doc() = "Tessera's compiled core: the hot loops (word graphs, move generation).";
    register_kwg(m);
}
