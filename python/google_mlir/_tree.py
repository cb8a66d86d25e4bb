"""Pytrees: tuples, lists, dicts (keys sorted, as JAX does), namedtuples
and None around leaves (arrays, tracers, Python scalars)."""

class TreeDef:
    """The structure of a pytree without its leaves."""

    __slots__ = ("kind", "meta", "children", "num_leaves")

    def __init__(self, kind, meta, children):
        self.kind = kind  # "leaf", "none", "tuple", "list", "dict", "namedtuple"
        self.meta = meta  # dict keys, or the namedtuple class
        self.children = children
        self.num_leaves = (1 if kind == "leaf" else
                           sum(c.num_leaves for c in children))

    def _key(self):
        return (self.kind, self.meta if self.kind != "dict" else
                tuple(self.meta), tuple(c._key() for c in self.children))

    def __eq__(self, other):
        return isinstance(other, TreeDef) and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def __repr__(self):
        return f"TreeDef({self.kind}, {len(self.children)} children)"


_LEAF = TreeDef("leaf", None, ())


def _is_namedtuple(value):
    return isinstance(value, tuple) and hasattr(value, "_fields")


def flatten(tree):
    """(leaves, treedef): the leaves in order (dicts by sorted key)."""
    leaves = []

    def visit(node):
        if node is None:
            return TreeDef("none", None, ())
        if _is_namedtuple(node):
            return TreeDef("namedtuple", type(node),
                           tuple(visit(c) for c in node))
        if isinstance(node, (tuple, list)):
            return TreeDef(type(node).__name__, None,
                           tuple(visit(c) for c in node))
        if isinstance(node, dict):
            keys = sorted(node)
            return TreeDef("dict", keys, tuple(visit(node[k]) for k in keys))
        leaves.append(node)
        return _LEAF

    treedef = visit(tree)
    return leaves, treedef


def unflatten(treedef, leaves):
    """The pytree of `treedef` holding `leaves` in order."""
    iterator = iter(leaves)

    def build(node):
        if node.kind == "leaf":
            return next(iterator)
        if node.kind == "none":
            return None
        children = [build(c) for c in node.children]
        if node.kind == "tuple":
            return tuple(children)
        if node.kind == "list":
            return children
        if node.kind == "dict":
            return dict(zip(node.meta, children))
        return node.meta(*children)

    result = build(treedef)
    return result


def tree_map(fn, tree):
    leaves, treedef = flatten(tree)
    return unflatten(treedef, [fn(leaf) for leaf in leaves])



def is_container(value):
    """Whether `value` is a pytree node (not a leaf)."""
    return value is None or isinstance(value, (tuple, list, dict))


def leaf_paths(treedef):
    """Each leaf's path as Python spells it: "[0]", "['w']", ".field"."""
    paths = []

    def visit(node, path):
        if node.kind == "leaf":
            paths.append(path)
        elif node.kind == "dict":
            for key, child in zip(node.meta, node.children):
                visit(child, f"{path}[{key!r}]")
        elif node.kind == "namedtuple":
            for field, child in zip(node.meta._fields, node.children):
                visit(child, f"{path}.{field}")
        else:
            for i, child in enumerate(node.children):
                visit(child, f"{path}[{i}]")

    visit(treedef, "")
    return paths
