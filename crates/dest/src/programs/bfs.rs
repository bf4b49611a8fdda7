//! Breadth-first relabelling (the paper's `mapAccumBFS`): one pass over the
//! input tree with a queue of (subtree, destination) pairs; each output node
//! is created when its input node is dequeued and its children are filled
//! later, when their turn comes.

use std::collections::VecDeque;

use crate::types::{labels_bfs, shape_of};
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

/// Baseline, two passes: copy the shape (recursive `Box` construction), then
/// assign the labels with a `VecDeque` BFS over `&mut` nodes. (Rust's
/// `&mut` slots also allow the one-pass algorithm: see
/// [`map_accum_bfs_box_one_pass`] and [`map_accum_bfs_bump`], the fair
/// baselines; this one is kept for comparison with earlier results.)
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
    shape_of(tree.as_deref(), |n| (n.left.as_deref(), n.right.as_deref()))
}

/// Labels of a [`BoxTree`] in breadth-first order.
pub fn box_tree_bfs<B: Clone>(tree: &BoxTree<B>) -> Vec<B> {
    labels_bfs(tree.as_deref(), |n| {
        (&n.value, n.left.as_deref(), n.right.as_deref())
    })
}

/// Fair baseline, safe Rust, one pass like [`map_accum_bfs`]: a `VecDeque` of
/// (input subtree, `&mut` output slot); each output node is created when its
/// input node is dequeued (`Option::insert`), its children's slots are queued
/// and filled when their turn comes. One `Box` per node, no shape copy and no
/// second pass (unlike [`map_accum_bfs_boxed`]).
pub fn map_accum_bfs_box_one_pass<A, B, S>(
    mut f: impl FnMut(S, &A) -> (S, B),
    s0: S,
    tree: Tree<'_, A>,
) -> (BoxTree<B>, S) {
    let mut out: BoxTree<B> = None;
    let mut s = s0;
    let mut queue: VecDeque<(Tree<'_, A>, &mut BoxTree<B>)> = VecDeque::new();
    queue.push_back((tree, &mut out));
    while let Some((t, o)) = queue.pop_front() {
        if let Some(node) = t {
            let (s1, b) = f(s, &node.value);
            s = s1;
            let onode = o.insert(Box::new(BoxNode {
                value: b,
                left: None,
                right: None,
            }));
            queue.push_back((node.left, &mut onode.left));
            queue.push_back((node.right, &mut onode.right));
        }
    }
    drop(queue);
    (out, s)
}

/// Relabelling `1..=n` with [`map_accum_bfs_box_one_pass`].
pub fn relabel_bfs_box_one_pass<A>(tree: Tree<'_, A>) -> BoxTree<u64> {
    map_accum_bfs_box_one_pass(|s, _| (s + 1, s), 1u64, tree).0
}

/// A binary tree in a [`bumpalo::Bump`] arena, built top-down through
/// `&mut` slots: `None` is empty, `Some` a node.
pub type BumpTree<'a, B> = Option<&'a mut BumpNode<'a, B>>;

/// A node of a [`BumpTree`].
#[derive(Debug, PartialEq, Eq)]
pub struct BumpNode<'a, B> {
    /// The label.
    pub value: B,
    /// Left subtree.
    pub left: BumpTree<'a, B>,
    /// Right subtree.
    pub right: BumpTree<'a, B>,
}

/// Fair baseline with an arena: [`map_accum_bfs_box_one_pass`] with the
/// nodes bump-allocated in `bump` (freed as a block, like a region) instead
/// of boxed. One pass, safe Rust, no destinations: the output slots are
/// ordinary `&mut Option<&mut BumpNode>`.
pub fn map_accum_bfs_bump<'a, A, B, S>(
    bump: &'a bumpalo::Bump,
    mut f: impl FnMut(S, &A) -> (S, B),
    s0: S,
    tree: Tree<'_, A>,
) -> (BumpTree<'a, B>, S) {
    let mut out: BumpTree<'a, B> = None;
    let mut s = s0;
    let mut queue: VecDeque<(Tree<'_, A>, &mut BumpTree<'a, B>)> = VecDeque::new();
    queue.push_back((tree, &mut out));
    while let Some((t, o)) = queue.pop_front() {
        if let Some(node) = t {
            let (s1, b) = f(s, &node.value);
            s = s1;
            let onode = o.insert(bump.alloc(BumpNode {
                value: b,
                left: None,
                right: None,
            }));
            queue.push_back((node.left, &mut onode.left));
            queue.push_back((node.right, &mut onode.right));
        }
    }
    drop(queue);
    (out, s)
}

/// Relabelling `1..=n` with [`map_accum_bfs_bump`].
pub fn relabel_bfs_bump<'a, A>(bump: &'a bumpalo::Bump, tree: Tree<'_, A>) -> BumpTree<'a, u64> {
    map_accum_bfs_bump(bump, |s, _| (s + 1, s), 1u64, tree).0
}

/// The shape of a [`BumpTree`], encoded as
/// [`tree_shape`](crate::types::tree_shape) encodes a region tree's.
pub fn bump_tree_shape<B>(tree: &BumpTree<'_, B>) -> Vec<bool> {
    shape_of(tree.as_deref(), |n| (n.left.as_deref(), n.right.as_deref()))
}

/// Labels of a [`BumpTree`] in breadth-first order.
pub fn bump_tree_bfs<B: Clone>(tree: &BumpTree<'_, B>) -> Vec<B> {
    labels_bfs(tree.as_deref(), |n| {
        (&n.value, n.left.as_deref(), n.right.as_deref())
    })
}
