// `#[derive(Fill)]` pastes field types into helper items where `Self` means
// something else (a helper struct, or the `Dest` being filled). A plain `Self`
// is replaced by the derived type, but a path through `Self` (`Self::Item`)
// cannot be rewritten that way: the derive reports it at the `Self`, asking
// for the type's name, instead of failing inside its expansion.
use dest::Fill;

trait HasItem {
    type Item;
}

#[derive(Fill, Clone, Copy)]
struct Bag {
    first: Self::Item,
}

impl HasItem for Bag {
    type Item = u8;
}

fn main() {}
