//! A [`Finding`] written as bytes and read back whole, for the findings a run holds on disk until
//! its end ([`crate::text::bytes`] says what a record is made of). The rule is written as its
//! place in a table the writer keeps, so no lookup by code is needed to read it back.

use crate::text::bytes::{Reader, put_option, put_str, put_u8, put_usize};
use crate::text::{FileText, PathText, Text};

use super::{Absent, Finding, Location, Placed, Position, RuleMeta, Severity};

/// The rules of the findings written so far, each at the place its records name it by.
#[derive(Debug, Default, Clone)]
pub struct RuleTable {
    rules: Vec<&'static RuleMeta>,
}

impl RuleTable {
    /// The place of `rule`, added if new. A run's findings come from a hundred rules at most,
    /// one after another: the last one found is looked at first.
    fn place_of(&mut self, rule: &'static RuleMeta) -> usize {
        if let Some(i) = self.rules.iter().rposition(|r| std::ptr::eq(*r, rule)) {
            return i;
        }
        self.rules.push(rule);
        self.rules.len() - 1
    }

    /// Appends `f`'s record to `out`.
    pub fn write(&mut self, f: &Finding, out: &mut Vec<u8>) {
        put_usize(out, self.place_of(f.rule));
        put_u8(
            out,
            match f.severity {
                Severity::Info => 0,
                Severity::Warning => 1,
                Severity::Error => 2,
            },
        );
        put_u8(out, u8::from(f.pre_rule));
        put_u8(out, u8::from(f.corpus));
        write_location(out, &f.primary);
        put_usize(out, f.related.len());
        for l in &f.related {
            write_location(out, l);
        }
        f.message.write_to(out);
        put_option(out, f.label.as_ref(), |o, t| t.write_to(o));
        put_option(out, f.help.as_ref(), |o, t| t.write_to(o));
        put_option(out, f.absent.as_deref(), write_absent);
        put_option(out, f.key.as_deref(), |o, k| put_str(o, k));
        put_option(out, f.placed.as_ref(), write_placed);
    }

    /// The finding whose record starts at the reader's place. `path` is the path of the last
    /// finding read: an equal path is shared with it rather than allocated again (a run's
    /// findings come sorted by path).
    pub fn read(&self, r: &mut Reader<'_>, path: &mut PathText) -> Option<Finding> {
        let rule = *self.rules.get(r.usize()?)?;
        let severity = match r.u8()? {
            0 => Severity::Info,
            1 => Severity::Warning,
            2 => Severity::Error,
            _ => return None,
        };
        let pre_rule = r.bool()?;
        let corpus = r.bool()?;
        let primary = read_location(r, path)?;
        let n = r.usize()?;
        let mut related = Vec::with_capacity(n.min(1 << 10));
        for _ in 0..n {
            let mut other = path.clone();
            related.push(read_location(r, &mut other)?);
        }
        Some(Finding {
            rule,
            severity,
            pre_rule,
            primary,
            corpus,
            related,
            message: Text::read_from(r)?,
            label: r.option(Text::read_from)?,
            help: r.option(Text::read_from)?,
            absent: r.option(read_absent)?.map(Box::new),
            key: r.option(|r| r.str().map(|k| Box::new(k.to_string())))?,
            placed: r.option(read_placed)?,
        })
    }
}

fn write_location(out: &mut Vec<u8>, l: &Location) {
    put_str(out, l.path.raw());
    put_usize(out, l.doc_start);
    put_str(out, l.pointer.raw());
    put_option(out, l.offset.as_ref(), |o, n| put_usize(o, *n));
}

/// A location; its path shares `path`'s allocation when equal, and becomes `path` otherwise.
fn read_location(r: &mut Reader<'_>, path: &mut PathText) -> Option<Location> {
    let raw = r.str()?;
    if path.raw() != raw {
        *path = PathText::new(raw);
    }
    Some(Location {
        path: path.clone(),
        doc_start: r.usize()?,
        pointer: FileText::new(r.str()?),
        offset: r.option(Reader::usize)?,
    })
}

fn write_absent(out: &mut Vec<u8>, a: &Absent) {
    a.what.write_to(out);
    a.field.write_to(out);
    put_str(out, &a.words);
    put_str(out, &a.pointer);
    put_option(out, a.sidecar.as_ref(), |o, t| t.write_to(o));
}

fn read_absent(r: &mut Reader<'_>) -> Option<Absent> {
    Some(Absent {
        what: Text::read_from(r)?,
        field: Text::read_from(r)?,
        words: r.str()?.to_string(),
        pointer: r.str()?.to_string(),
        sidecar: r.option(Text::read_from)?,
    })
}

fn write_position(out: &mut Vec<u8>, p: &Position) {
    for n in [p.line, p.column, p.start, p.len, p.chars] {
        put_usize(out, n);
    }
}

fn read_position(r: &mut Reader<'_>) -> Option<Position> {
    Some(Position {
        line: r.usize()?,
        column: r.usize()?,
        start: r.usize()?,
        len: r.usize()?,
        chars: r.usize()?,
    })
}

fn write_placed(out: &mut Vec<u8>, p: &Placed) {
    put_option(out, p.primary.as_ref(), write_position);
    put_usize(out, p.related.len());
    for q in &p.related {
        put_option(out, q.as_ref(), write_position);
    }
}

fn read_placed(r: &mut Reader<'_>) -> Option<Placed> {
    let primary = r.option(read_position)?;
    let n = r.usize()?;
    let mut related = Vec::with_capacity(n.min(1 << 10));
    for _ in 0..n {
        related.push(r.option(read_position)?);
    }
    Some(Placed { primary, related })
}
