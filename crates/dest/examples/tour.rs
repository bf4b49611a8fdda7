//! The paper's four programs on small inputs: `cargo run -p dest --example tour`.

use dest::programs::sexpr::SExpr;
use dest::programs::{bfs, dlist, inputs, map, sexpr};
use dest::types::{to_vec, tree_bfs};
use dest::{Region, Tree};

fn show_tree(t: &Tree<'_, u64>) -> String {
    match t {
        None => ".".into(),
        Some(n) => format!(
            "({} {} {})",
            n.value,
            show_tree(&n.left),
            show_tree(&n.right)
        ),
    }
}

fn main() {
    let r = Region::new();

    // Difference lists: O(1) append and concatenation, then one `fill_nil`.
    let a = dlist::append(dlist::append(dlist::alloc(&r), 1), 2);
    let b = dlist::append(dlist::alloc(&r), 3);
    let ab = dlist::concat(a, b);
    let list = dlist::to_list(dlist::append(ab, 4));
    println!("dlist  [1,2] ++ [3], then append 4: {:?}", to_vec(&list));

    // A tail-recursive map writing each result in its final place.
    let squares = map::map_dest(&r, |x: &u64| x * x, list);
    println!("map    squares: {:?}", to_vec(&squares));

    // Breadth-first relabelling in one pass, with a queue of destinations.
    let t = inputs::random_tree(&r, 7, 1);
    let relabelled = bfs::relabel_bfs(&r, t);
    println!("bfs    input (label left right): {}", show_tree(&t));
    println!(
        "bfs    relabelled:               {}",
        show_tree(&relabelled)
    );
    println!("bfs    labels in BFS order: {:?}", tree_bfs(&relabelled));

    // An S-expression parser writing straight into the region.
    let src = r#"(define (square x) (* x x) "a \"quoted\" string" -42)"#;
    match sexpr::parse(&r, src) {
        Ok(e) => {
            println!("sexpr  {src}");
            println!(
                "sexpr  atoms: {}, region bytes so far: {}",
                sexpr::count_atoms(e),
                r.allocated_bytes()
            );
            if let SExpr::List(items) = e {
                for item in dest::types::iter(items) {
                    println!("         {item:?}");
                }
            }
        }
        Err(err) => println!("sexpr  error: {err}"),
    }
    match sexpr::parse(&r, "(unclosed") {
        Ok(_) => println!("sexpr  unexpectedly parsed"),
        Err(err) => println!("sexpr  \"(unclosed\": {err}"),
    }
}
