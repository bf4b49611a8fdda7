//! Calls each entry of the example libraries and prints the results.

use weir_embed_example::{extra, kernels};
use weir_rs::ndarray::array;
use weir_rs::{Context, Error};

fn main() -> Result<(), Error> {
    let mut ctx = Context::new()?;
    let (a, b, c) = (
        array![1.0, 2.0, 3.0, 4.0],
        array![10.0, 20.0, 30.0, 40.0],
        array![100.0, 200.0, 300.0, 400.0],
    );
    println!("nothing(2.5) = {}", kernels::nothing(&mut ctx, 2.5)?);
    println!(
        "add3 = {}",
        kernels::add3(&mut ctx, a.view(), b.view(), c.view())?
    );
    let m = array![[1.0, 5.0, 2.0], [-1.0, -4.0, -2.0]];
    let (sums, maxs) = kernels::row_stats(&mut ctx, m.view())?;
    println!("row sums = {sums}, row maxima = {maxs}");
    let xs = array![0.5, 3.0, -1.0, 7.0, 2.0, 9.0];
    let (ys, n) = kernels::above(&mut ctx, 1.0, xs.view())?;
    println!("above 1.0: {ys} ({n} elements)");
    let v = array![1.0, 1.0, 1.0];
    println!(
        "scaled_matvec = {}",
        kernels::scaled_matvec(&mut ctx, 2.0, m.view(), v.view())?
    );
    let (trues, ints) = kernels::count_true(&mut ctx, array![true, false, true].view())?;
    println!("count_true = {trues}, {ints}");
    println!(
        "hist = {}",
        extra::hist(&mut ctx, array![1i64, 3, 1, 0].view())?
    );

    // errors: their kind, location and message
    let mut short = weir_rs::ndarray::Array1::zeros(3);
    if let Err(e) = kernels::add3_into(&mut ctx, short.view_mut(), a.view(), b.view(), c.view()) {
        println!("too-small destination: {:?}: {e}", e.code);
    }
    if let Err(e) = extra::pick(&mut ctx, a.view(), 7) {
        println!("out of bounds: {:?}: {e}", e.code);
    }
    Ok(())
}
