//! Deterministic inputs for the tests and benchmarks: seeded, so that runs are
//! comparable, and of varied shape, so that nothing is tuned to one input.

use crate::{Dest, List, Region, Tree, TreeFill};

/// A small xorshift generator (64-bit state).
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed (any value; 0 is remapped).
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
}

/// The region list `0, 1, ..., n-1`.
pub fn list<'r>(region: &'r Region, n: usize) -> List<'r, u64> {
    let xs: Vec<u64> = (0..n as u64).collect();
    crate::types::from_slice(region, &xs)
}

/// A random binary tree of `n` nodes labelled in depth-first order: each node
/// splits its remaining nodes between its subtrees uniformly at random (the
/// shape of a random binary search tree; expected depth `O(log n)`).
pub fn random_tree(region: &Region, n: usize, seed: u64) -> Tree<'_, u64> {
    let mut rng = Rng::new(seed);
    let mut label = 0u64;
    *region.build(|root: Dest<'_, Tree<'_, u64>>| {
        let mut stack = vec![(n as u64, root)];
        while let Some((count, d)) = stack.pop() {
            if count == 0 {
                d.fill_nil();
                continue;
            }
            let (dl, dr) = d.fill_node_with(label);
            label += 1;
            let left = rng.below(count);
            stack.push((count - 1 - left, dr));
            stack.push((left, dl));
        }
    })
}

/// An S-expression document with `atoms` atoms (integers, symbols, strings,
/// some with escapes) in randomly nested lists (depth at most 24), as one
/// top-level list.
pub fn sexpr_document(atoms: usize, seed: u64) -> String {
    let mut rng = Rng::new(seed);
    let mut out = String::with_capacity(atoms * 8);
    out.push('(');
    let mut depth = 1usize;
    let mut in_list = 0usize; // items in the innermost list
    let mut emitted = 0usize;
    while emitted < atoms {
        let r = rng.below(100);
        if r < 12 && depth < 24 {
            out.push_str(if in_list > 0 { " (" } else { "(" });
            depth += 1;
            in_list = 0;
            continue;
        }
        if r < 22 && depth > 1 && in_list > 0 {
            out.push(')');
            depth -= 1;
            in_list = 1;
            continue;
        }
        if in_list > 0 {
            out.push(if rng.below(8) == 0 { '\n' } else { ' ' });
        }
        match rng.below(3) {
            0 => {
                let v = rng.next_u64() as i64 >> rng.below(60);
                out.push_str(&v.to_string());
            }
            1 => {
                const SYM: &[u8] = b"abcdefghijklmnopqrstuvwxyz-+*/<=>?!";
                let len = 1 + rng.below(10) as usize;
                for k in 0..len {
                    let mut c = SYM[rng.below(SYM.len() as u64) as usize];
                    if k == 0 && (c == b'-' || c == b'+') {
                        c = b'x';
                    }
                    out.push(c as char);
                }
            }
            _ => {
                out.push('"');
                let len = rng.below(16) as usize;
                for _ in 0..len {
                    match rng.below(20) {
                        0 => out.push_str("\\n"),
                        1 => out.push_str("\\\""),
                        2 => out.push_str("\\\\"),
                        3 => out.push(' '),
                        _ => out.push((b'a' + rng.below(26) as u8) as char),
                    }
                }
                out.push('"');
            }
        }
        in_list += 1;
        emitted += 1;
    }
    for _ in 0..depth {
        out.push(')');
    }
    out
}
