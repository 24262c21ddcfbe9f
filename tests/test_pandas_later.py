"""OR-Tools without pandas until pandas is used (:mod:`cpknight.runtime.pandas_later`).

Each case runs in a fresh interpreter: which modules are loaded is the point.
"""

from __future__ import annotations

from tests.fresh import fresh_output

SOLVE = """
import sys
import cpknight
from ortools.sat.python import cp_model
from ortools.linear_solver.python import model_builder as mb
m = cp_model.CpModel()
x = m.new_int_var(0, 5, "x")
m.add(x >= 3)
m.minimize(x)
s = cp_model.CpSolver()
assert s.solve(m) == cp_model.OPTIMAL and s.value(x) == 3
"""


def test_cp_model_and_model_builder_load_without_pandas() -> None:
    out = fresh_output(SOLVE + "print('pandas' in sys.modules)")
    assert out == "False"


def test_the_pandas_helpers_give_real_pandas_objects() -> None:
    script = SOLVE + (
        "import pandas as pd\n"
        "assert sys.modules['pandas'] is pd and not pd.__name__ != 'pandas'\n"
        "ys = m.new_int_var_series('y', pd.Index(range(3)), 0, 4)\n"
        "assert type(ys) is pd.Series and isinstance(ys, pd.Series)\n"
        "assert list(cp_model._get_index(ys)) == [0, 1, 2]\n"
        "assert isinstance(pd.Index([1]), cp_model.pd.Index)\n"
        "bs = m.new_bool_var_series('b', pd.Index(['p', 'q']))\n"
        "assert list(bs.index) == ['p', 'q']\n"
        "model = mb.Model()\n"
        "vs = model.new_var_series('v', pd.Index(range(2)), 0, 1, False)\n"
        "assert isinstance(vs, pd.Series) and len(vs) == 2\n"
        "print('ok')"
    )
    assert fresh_output(script) == "ok"


def test_a_helper_used_before_pandas_is_imported_imports_it() -> None:
    # No pandas object can exist yet, but a helper that builds one must work.
    script = SOLVE + (
        "idx = cp_model.pd.Index(range(2))\n"
        "print(type(idx).__module__.split('.')[0], 'pandas' in sys.modules)"
    )
    assert fresh_output(script) == "pandas True"


def test_pandas_imported_first_leaves_or_tools_untouched() -> None:
    script = (
        "import pandas, cpknight\n"
        "from ortools.sat.python import cp_model\n"
        "print(cp_model.pd is pandas)"
    )
    assert fresh_output(script) == "True"


def test_without_cpknight_or_tools_imports_pandas_as_it_always_did() -> None:
    # The finder is cpknight's: a process that never imports cpknight is untouched.
    script = (
        "import sys\n"
        "from ortools.sat.python import cp_model\n"
        "print('pandas' in sys.modules)"
    )
    assert fresh_output(script) == "True"
