// Entry point of the compiled core: each part registers its functions here.
#include <pybind11/pybind11.h>

namespace py = pybind11;

void register_kwg(py::module_& m);  // kwg.cpp
void register_selfplay(py::module_& m);  // selfplay.cpp
void register_movegen(py::module_& m);  // movegen.cpp
void register_endgame(py::module_& m);  // endgame.cpp
void register_sim(py::module_& m);  // sim.cpp

PYBIND11_MODULE(_core, m) {
    m.doc() = "Tessera's compiled core: the hot loops (word graphs, move generation, endgame "
              "search, simulation).";
    register_kwg(m);
    register_selfplay(m);
    register_movegen(m);
    register_endgame(m);
    register_sim(m);
}
