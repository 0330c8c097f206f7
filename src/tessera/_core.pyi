# The compiled core (C++ through pybind11, built from src/tessera/_core/): no generated
# stubs yet, so every name it exports is typed Any; the Python modules that call it give
# their own functions precise types.
from typing import Any

def __getattr__(name: str) -> Any: ...
