//! One exact printing of any parser's tree, so two parsers' reads of the same bytes compare
//! as text: integers as integers (`5`), floats with Rust's shortest round-trip form (`5.0`,
//! `-0.0`, `1e300`, `inf`), strings with Rust's escapes, object members sorted by key with a
//! stable sort (duplicate members, where a parser keeps them, stay in their order).

use std::fmt::Write;

pub trait Dump {
    fn dump_into(&self, out: &mut String);

    fn dump(&self) -> String {
        let mut s = String::new();
        self.dump_into(&mut s);
        s
    }
}

fn object<'a, V: Dump + 'a>(mut members: Vec<(&'a str, &'a V)>, out: &mut String) {
    members.sort_by(|a, b| a.0.cmp(b.0));
    out.push('{');
    for (i, (k, v)) in members.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let _ = write!(out, "{k:?}:");
        v.dump_into(out);
    }
    out.push('}');
}

fn array<'a, V: Dump + 'a>(items: impl Iterator<Item = &'a V>, out: &mut String) {
    out.push('[');
    for (i, v) in items.enumerate() {
        if i > 0 {
            out.push(',');
        }
        v.dump_into(out);
    }
    out.push(']');
}

impl Dump for serde_json::Value {
    fn dump_into(&self, out: &mut String) {
        use serde_json::Value;
        match self {
            Value::Null => out.push_str("null"),
            Value::Bool(b) => {
                let _ = write!(out, "{b}");
            }
            Value::Number(n) => {
                if let Some(u) = n.as_u64() {
                    let _ = write!(out, "{u}");
                } else if let Some(i) = n.as_i64() {
                    let _ = write!(out, "{i}");
                } else if let Some(x) = n.as_f64() {
                    let _ = write!(out, "{x:?}");
                }
            }
            Value::String(s) => {
                let _ = write!(out, "{s:?}");
            }
            Value::Array(a) => array(a.iter(), out),
            Value::Object(o) => object(o.iter().map(|(k, v)| (k.as_str(), v)).collect(), out),
        }
    }
}

#[cfg(feature = "simd")]
impl Dump for simd_json::BorrowedValue<'_> {
    fn dump_into(&self, out: &mut String) {
        use simd_json::{BorrowedValue as V, StaticNode};
        match self {
            V::Static(StaticNode::Null) => out.push_str("null"),
            V::Static(StaticNode::Bool(b)) => {
                let _ = write!(out, "{b}");
            }
            V::Static(StaticNode::U64(u)) => {
                let _ = write!(out, "{u}");
            }
            V::Static(StaticNode::I64(i)) => {
                let _ = write!(out, "{i}");
            }
            V::Static(StaticNode::F64(x)) => {
                let _ = write!(out, "{x:?}");
            }
            #[allow(unreachable_patterns)]
            V::Static(other) => {
                let _ = write!(out, "{other:?}");
            }
            V::String(s) => {
                let _ = write!(out, "{:?}", &**s);
            }
            V::Array(a) => array(a.iter(), out),
            V::Object(o) => object(o.iter().map(|(k, v)| (&**k, v)).collect(), out),
        }
    }
}

#[cfg(feature = "sonic")]
impl Dump for sonic_rs::Value {
    fn dump_into(&self, out: &mut String) {
        use sonic_rs::JsonType;
        use sonic_rs::prelude::*;
        match self.get_type() {
            JsonType::Null => out.push_str("null"),
            JsonType::Boolean => {
                let _ = write!(out, "{}", self.as_bool().unwrap_or_default());
            }
            JsonType::Number => {
                let n = self.as_number().expect("a number");
                if let Some(u) = n.as_u64() {
                    let _ = write!(out, "{u}");
                } else if let Some(i) = n.as_i64() {
                    let _ = write!(out, "{i}");
                } else if let Some(x) = n.as_f64() {
                    let _ = write!(out, "{x:?}");
                }
            }
            JsonType::String => {
                let _ = write!(out, "{:?}", self.as_str().unwrap_or_default());
            }
            JsonType::Array => array(self.as_array().expect("an array").iter(), out),
            JsonType::Object => object(self.as_object().expect("an object").iter().collect(), out),
        }
    }
}
