"""A/B timing of this build against an older commit built beside it.

``python -m benchmarks ab REV`` (see :mod:`benchmarks._ab.cli`). The package's name starts
with an underscore so that ``python -m benchmarks`` (every benchmark) does not run it: it
needs a revision and builds one, which takes minutes.

Modules, one job each: ``build`` (a worktree and a virtualenv of REV, cached), ``worker``
(the timing script both builds run), ``rounds`` (interleaved worker runs), ``stats`` (medians,
ratios, the table), ``callgrind`` (instruction counts), ``cli`` (arguments, output).
"""
