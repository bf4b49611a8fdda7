//! The provided structures: lists, binary trees, and the fills for options and
//! boxes (region references).
//!
//! Lists and trees are `Option<&'r Node>`: `None` is `Nil`, `Some` points to a
//! region cell holding the constructor's fields, as in the paper where every
//! field is a pointer to a heap object. They pattern-match like any Rust
//! value once complete, and being [`Flat`](crate::Flat) they can be plugged
//! with [`Dest::fill_comp`].

use crate::raw::Dest;
use crate::region::Region;

/// A singly linked list in a region: `None` is `Nil`, `Some(cell)` is a cons.
pub type List<'r, T> = Option<&'r Cons<'r, T>>;

/// A cons cell of a [`List`].
#[derive(crate::Fill, Debug, Clone, Copy, PartialEq, Eq)]
#[dest(name = "cons_cell")]
pub struct Cons<'r, T> {
    /// The element.
    pub head: T,
    /// The rest of the list.
    pub tail: List<'r, T>,
}

/// A binary tree in a region: `None` is `Nil`, `Some(node)` is a node.
pub type Tree<'r, T> = Option<&'r Node<'r, T>>;

/// A node of a [`Tree`].
#[derive(crate::Fill, Debug, Clone, Copy, PartialEq, Eq)]
#[dest(name = "node_cell")]
pub struct Node<'r, T> {
    /// The label.
    pub value: T,
    /// Left subtree.
    pub left: Tree<'r, T>,
    /// Right subtree.
    pub right: Tree<'r, T>,
}

/// Hollow constructors of [`List`] (the paper's `fill @'[]`, `fill @'(:)`).
///
/// The tail of a new cons cell is *prefilled*: it holds `None` until its
/// destination is filled, so list construction does no hole counting (see
/// the crate docs, "Representation and costs").
pub trait ListFill<'r, T> {
    /// Ends the list here (`fill @'[]`).
    fn fill_nil(self);
    /// A new cons cell here; returns the holes for its head and its tail
    /// (`fill @'(:)`).
    fn fill_cons(self) -> (Dest<'r, T>, Dest<'r, List<'r, T>>);
    /// A new cons cell here with `head` written in it; returns the hole for
    /// its tail (`fill @'(:)` then `fillLeaf` of the head, in one step).
    fn fill_cons_with(self, head: T) -> Dest<'r, List<'r, T>>;
}

/// Hollow constructors of [`Tree`] (the paper's `fill @'Nil`, `fill @'Node`).
///
/// The subtrees of a new node are *prefilled* with `None`, like list tails.
pub trait TreeFill<'r, T> {
    /// An empty subtree here.
    fn fill_nil(self);
    /// A new node here; returns the holes for its label and its subtrees.
    fn fill_node(self) -> (Dest<'r, T>, Dest<'r, Tree<'r, T>>, Dest<'r, Tree<'r, T>>);
    /// A new node here labelled `value`; returns the holes for its subtrees.
    fn fill_node_with(self, value: T) -> (Dest<'r, Tree<'r, T>>, Dest<'r, Tree<'r, T>>);
}

/// The elements of a list, front to back.
pub fn iter<'a, 'r: 'a, T>(list: &'a List<'r, T>) -> impl Iterator<Item = &'r T> + 'a {
    let mut cur = *list;
    std::iter::from_fn(move || {
        let c = cur?;
        cur = c.tail;
        Some(&c.head)
    })
}

/// Number of elements of a list.
pub fn len<T>(list: &List<'_, T>) -> usize {
    iter(list).count()
}

/// The elements of a list, copied into a `Vec`.
pub fn to_vec<T: Clone>(list: &List<'_, T>) -> Vec<T> {
    iter(list).cloned().collect()
}

/// A region list with the elements of `xs`, built front to back through
/// destinations.
pub fn from_slice<'r, T: Copy>(region: &'r Region, xs: &[T]) -> List<'r, T> {
    *region.build(|mut d: Dest<'r, List<'r, T>>| {
        for &x in xs {
            d = d.fill_cons_with(x);
        }
        d.fill_nil();
    })
}

/// Number of nodes of a tree.
pub fn tree_size<T>(tree: &Tree<'_, T>) -> usize {
    let mut n = 0;
    let mut stack = vec![*tree];
    while let Some(t) = stack.pop() {
        if let Some(node) = t {
            n += 1;
            stack.push(node.left);
            stack.push(node.right);
        }
    }
    n
}

/// The shape of a tree, labels ignored: `true` for a node, `false` for an
/// empty subtree, in depth-first pre-order (iterative, any depth). Two trees
/// have the same shape exactly when these are equal.
pub fn tree_shape<T>(tree: &Tree<'_, T>) -> Vec<bool> {
    shape_of(*tree, |n| (n.left, n.right))
}

/// The labels of a tree in breadth-first order.
pub fn tree_bfs<T: Clone>(tree: &Tree<'_, T>) -> Vec<T> {
    labels_bfs(*tree, |n| (&n.value, n.left, n.right))
}

/// [`tree_shape`] for any binary tree whose nodes `kids` opens: the
/// baselines' `Box` and arena trees are compared with region trees by it.
pub(crate) fn shape_of<'a, N>(
    root: Option<&'a N>,
    kids: impl Fn(&'a N) -> (Option<&'a N>, Option<&'a N>),
) -> Vec<bool> {
    let mut out = Vec::new();
    let mut stack = vec![root];
    while let Some(t) = stack.pop() {
        out.push(t.is_some());
        if let Some(node) = t {
            let (left, right) = kids(node);
            stack.push(right);
            stack.push(left);
        }
    }
    out
}

/// [`tree_bfs`] for any binary tree whose nodes `open` gives as (label,
/// left, right).
pub(crate) fn labels_bfs<'a, N, T: Clone + 'a>(
    root: Option<&'a N>,
    open: impl Fn(&'a N) -> (&'a T, Option<&'a N>, Option<&'a N>),
) -> Vec<T> {
    let mut out = Vec::new();
    let mut q = std::collections::VecDeque::from([root]);
    while let Some(t) = q.pop_front() {
        if let Some(node) = t {
            let (value, left, right) = open(node);
            out.push(value.clone());
            q.push_back(left);
            q.push_back(right);
        }
    }
    out
}
