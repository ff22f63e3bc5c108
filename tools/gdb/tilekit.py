"""gdb pretty-printers for TileKit block handles.

Load with `source tools/gdb/tilekit.py` (or add that line to ~/.gdbinit). While a kernel runs on
the interpreter, `print x` on a block handle shows its dtype, shape and elements for the current
program instance; while it is being traced it shows that the value is symbolic.
"""

import gdb

MAX_ELEMENTS = 64


def _dtype_name(code):
    return str(code).split("::")[-1]


class BlockPrinter:
    def __init__(self, val):
        self.val = val

    def _value(self):
        ref = self.val["v_"]
        ptr = ref["p_"]  # tk::detail::counted<value>
        if int(ptr) == 0:
            return None
        return ptr.dereference()

    def to_string(self):
        v = self._value()
        if v is None:
            return "tk block (empty handle)"
        t = v["type"]
        code = _dtype_name(t["code"])
        if code == "ptr":
            code = "ptr<%s>" % _dtype_name(t["pointee"])
        shape = _vector(v["shape"])
        dims = "[" + ", ".join(str(int(d)) for d in shape) + "]"
        floats, ints = _vector(v["f"]), _vector(v["i"])
        data = floats if floats else ints
        if not data:
            return "tk block %s %s (symbolic: the kernel is being traced)" % (code, dims)
        shown = data[:MAX_ELEMENTS]
        if code.startswith("ptr"):
            items = ["0x%x" % (int(x) & 0xFFFFFFFFFFFFFFFF) for x in shown]
        elif floats:
            items = ["%.9g" % float(x) for x in shown]
        else:
            items = [str(int(x)) for x in shown]
        more = ", ..." if len(data) > MAX_ELEMENTS else ""
        return "tk block %s %s = {%s%s}" % (code, dims, ", ".join(items), more)


def _vector(vec):
    impl = vec["_M_impl"]
    start, finish = impl["_M_start"], impl["_M_finish"]
    n = int(finish - start)
    return [(start + k).dereference() for k in range(n)]


def _lookup(val):
    t = val.type.strip_typedefs()
    if t.code == gdb.TYPE_CODE_REF:
        t = t.target().strip_typedefs()
    name = t.tag or ""
    if name.startswith("tk::block<"):
        return BlockPrinter(val)
    return None


gdb.pretty_printers.append(_lookup)


class ScalarFunction(gdb.Function):
    """$tk_scalar(handle): the first element of a block handle while interpreting (-1 while
    tracing). Use it in breakpoint conditions: `break k.cpp:12 if $tk_scalar(row) == 7`."""

    def __init__(self):
        super().__init__("tk_scalar")

    def invoke(self, handle):
        v = BlockPrinter(handle)._value()
        if v is None:
            return -1
        floats, ints = _vector(v["f"]), _vector(v["i"])
        if floats:
            return float(floats[0])
        if ints:
            return int(ints[0])
        return -1


ScalarFunction()
