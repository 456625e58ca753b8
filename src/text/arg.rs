//! The arguments [`text!`](crate::text!) takes, and the origin each gives its part: numbers and
//! [`Own`] are benchlint's words, strings are text from an input.

use std::borrow::Cow;

use super::{FileText, Text};

/// A value given to [`text!`](crate::text!): its origin decides how it is shown.
pub trait Arg {
    /// The value as text, with its origin.
    fn into_text(self) -> Text;
}

/// Benchlint's own words given to [`text!`](crate::text!) as an argument (a `&str` argument
/// is otherwise taken for text from an input).
#[derive(Debug, Clone, Copy)]
pub struct Own(pub &'static str);

impl Arg for Own {
    fn into_text(self) -> Text {
        Text::Own(Cow::Borrowed(self.0))
    }
}

impl Arg for Text {
    fn into_text(self) -> Text {
        self
    }
}

impl Arg for &Text {
    fn into_text(self) -> Text {
        self.clone()
    }
}

impl Arg for String {
    fn into_text(self) -> Text {
        Text::File(self)
    }
}

impl Arg for &String {
    fn into_text(self) -> Text {
        Text::File(self.clone())
    }
}

impl Arg for &str {
    fn into_text(self) -> Text {
        Text::File(self.to_string())
    }
}

impl Arg for &FileText {
    fn into_text(self) -> Text {
        Text::File(self.0.clone())
    }
}

impl Arg for &super::PathText {
    fn into_text(self) -> Text {
        Text::File(self.raw().to_string())
    }
}

impl Arg for FileText {
    fn into_text(self) -> Text {
        Text::File(self.0)
    }
}

macro_rules! own_numbers {
    ($($t:ty),*) => {$(
        impl Arg for $t {
            fn into_text(self) -> Text {
                Text::Own(Cow::Owned(self.to_string()))
            }
        }
        impl Arg for &$t {
            fn into_text(self) -> Text {
                Text::Own(Cow::Owned(self.to_string()))
            }
        }
    )*};
}
own_numbers!(u8, u16, u32, u64, usize, i32, i64, f64);
