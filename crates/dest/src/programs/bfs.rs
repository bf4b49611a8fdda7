//! Breadth-first relabelling (the paper's `mapAccumBFS`): one pass over the
//! input tree with a queue of (subtree, destination) pairs; each output node
//! is created when its input node is dequeued and its children are filled
//! later, when their turn comes.

use std::collections::VecDeque;

use crate::{Dest, Region, Tree, TreeFill};

/// Maps `f` over the labels of `tree` in breadth-first order, threading the
/// state `s` (the paper's `mapAccumBFS`). Returns the new tree, of the same
/// shape, and the final state.
pub fn map_accum_bfs<'r, A, B: Copy, S>(
    region: &'r Region,
    mut f: impl FnMut(S, &A) -> (S, B),
    s0: S,
    tree: Tree<'_, A>,
) -> (Tree<'r, B>, S) {
    let (out, root) = region.alloc::<Tree<'r, B>>();
    let mut queue: VecDeque<(Tree<'_, A>, Dest<'r, Tree<'r, B>>)> = VecDeque::new();
    queue.push_back((tree, root));
    let mut s = s0;
    while let Some((t, d)) = queue.pop_front() {
        match t {
            None => d.fill_nil(),
            Some(node) => {
                let (s1, b) = f(s, &node.value);
                s = s1;
                let (dl, dr) = d.fill_node_with(b);
                queue.push_back((node.left, dl));
                queue.push_back((node.right, dr));
            }
        }
    }
    (*out.complete(), s)
}

/// Labels the nodes `1..=n` in breadth-first order (the paper's `relabelBFS`).
pub fn relabel_bfs<'r, A>(region: &'r Region, tree: Tree<'_, A>) -> Tree<'r, u64> {
    map_accum_bfs(region, |s, _| (s + 1, s), 1u64, tree).0
}

/// The idiomatic Rust tree: `Option<Box<BoxNode>>`.
pub type BoxTree<B> = Option<Box<BoxNode<B>>>;

/// A node of a [`BoxTree`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoxNode<B> {
    /// The label.
    pub value: B,
    /// Left subtree.
    pub left: BoxTree<B>,
    /// Right subtree.
    pub right: BoxTree<B>,
}

/// Baseline: without destinations, a pure one-pass BFS rebuild is not easy, so
/// a Rust programmer copies the shape (recursive `Box` construction) and then
/// assigns the labels with a `VecDeque` BFS over `&mut` nodes.
pub fn map_accum_bfs_boxed<A, B: Default, S>(
    mut f: impl FnMut(S, &A) -> (S, B),
    s0: S,
    tree: Tree<'_, A>,
) -> (BoxTree<B>, S) {
    fn shape<A, B: Default>(t: Tree<'_, A>) -> BoxTree<B> {
        t.map(|n| {
            Box::new(BoxNode {
                value: B::default(),
                left: shape(n.left),
                right: shape(n.right),
            })
        })
    }
    let mut out: BoxTree<B> = shape(tree);
    let mut s = s0;
    let mut queue: VecDeque<(Tree<'_, A>, &mut BoxTree<B>)> = VecDeque::new();
    queue.push_back((tree, &mut out));
    while let Some((t, o)) = queue.pop_front() {
        if let (Some(node), Some(onode)) = (t, o.as_deref_mut()) {
            let (s1, b) = f(s, &node.value);
            s = s1;
            onode.value = b;
            queue.push_back((node.left, &mut onode.left));
            queue.push_back((node.right, &mut onode.right));
        }
    }
    (out, s)
}

/// Baseline relabelling (recursive `Box` construction + `VecDeque` BFS).
pub fn relabel_bfs_boxed<A>(tree: Tree<'_, A>) -> BoxTree<u64> {
    map_accum_bfs_boxed(|s, _| (s + 1, s), 1u64, tree).0
}

/// The shape of a [`BoxTree`], encoded as [`tree_shape`](crate::types::tree_shape)
/// encodes a region tree's.
pub fn box_tree_shape<B>(tree: &BoxTree<B>) -> Vec<bool> {
    let mut out = Vec::new();
    let mut stack = vec![tree];
    while let Some(t) = stack.pop() {
        out.push(t.is_some());
        if let Some(node) = t {
            stack.push(&node.right);
            stack.push(&node.left);
        }
    }
    out
}

/// Labels of a [`BoxTree`] in breadth-first order.
pub fn box_tree_bfs<B: Clone>(tree: &BoxTree<B>) -> Vec<B> {
    let mut out = Vec::new();
    let mut q = VecDeque::from([tree]);
    while let Some(t) = q.pop_front() {
        if let Some(n) = t {
            out.push(n.value.clone());
            q.push_back(&n.left);
            q.push_back(&n.right);
        }
    }
    out
}
