//! Reading the Python `repr` text engines print about their settings (vLLM's `non-default
//! args: {...}` and `with config: k=v, ...`, SGLang's `ServerArgs(k=v, ...)`) into JSON values.
//!
//! Tolerant and bounded: strings in either quote, numbers, `True` / `False` / `None`, lists,
//! tuples, dicts, constructor calls (`KVTransferConfig(k=v, ...)`, read as an object of their
//! keyword arguments), enum reprs (`<CompilationMode.VLLM_COMPILE: 3>`, read as their text),
//! and bare words (`auto`, `torch.bfloat16`, read as text). Nesting deeper than [`MAX_DEPTH`]
//! or a container of more than [`MAX_ITEMS`] items stops the read; what was read before is
//! kept. Nothing is evaluated.

use serde_json::{Map, Number, Value};

/// Deepest nesting read.
pub const MAX_DEPTH: usize = 32;
/// Most items read from one container.
pub const MAX_ITEMS: usize = 10_000;

/// `k=v, k=v, ...` (the inside of a call, or vLLM's config line) as an object. Reading stops at
/// the end of the text or at a closing bracket that was not opened.
pub fn keyword_args(text: &str) -> Map<String, Value> {
    let mut r = Reader {
        s: text.as_bytes(),
        at: 0,
    };
    r.kwargs(0)
}

/// One value (`{...}`, `[...]`, `Name(...)`, a scalar) at the start of `text`.
pub fn value(text: &str) -> Value {
    let mut r = Reader {
        s: text.as_bytes(),
        at: 0,
    };
    r.value(0)
}

struct Reader<'a> {
    s: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.at).copied()
    }

    fn skip_ws(&mut self) {
        while self.peek().is_some_and(|c| c.is_ascii_whitespace()) {
            self.at += 1;
        }
    }

    fn eat(&mut self, c: u8) -> bool {
        self.skip_ws();
        if self.peek() == Some(c) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn text(&self, from: usize, to: usize) -> String {
        String::from_utf8_lossy(&self.s[from..to.min(self.s.len())]).into_owned()
    }

    /// `k=v` pairs up to an unmatched closing bracket or the end.
    fn kwargs(&mut self, depth: usize) -> Map<String, Value> {
        let mut out = Map::new();
        loop {
            self.skip_ws();
            match self.peek() {
                None | Some(b')' | b']' | b'}') => return out,
                Some(b',') => {
                    self.at += 1;
                    continue;
                }
                _ => {}
            }
            if out.len() >= MAX_ITEMS {
                return out;
            }
            let start = self.at;
            while self
                .peek()
                .is_some_and(|c| c.is_ascii_alphanumeric() || c == b'_' || c == b'.')
            {
                self.at += 1;
            }
            let key = self.text(start, self.at);
            if key.is_empty() || !self.eat(b'=') {
                // A positional argument or something unreadable: skip to the next comma.
                self.at = start;
                self.value(depth);
                continue;
            }
            let v = self.value(depth);
            out.insert(key, v);
        }
    }

    fn value(&mut self, depth: usize) -> Value {
        self.skip_ws();
        if depth >= MAX_DEPTH {
            self.skip_item();
            return Value::Null;
        }
        match self.peek() {
            None => Value::Null,
            Some(q @ (b'\'' | b'"')) => Value::String(self.string(q)),
            Some(b'{') => {
                self.at += 1;
                self.dict(depth + 1)
            }
            Some(b'[') => {
                self.at += 1;
                self.list(b']', depth + 1)
            }
            Some(b'(') => {
                self.at += 1;
                self.list(b')', depth + 1)
            }
            Some(b'<') => {
                let start = self.at;
                while self.peek().is_some_and(|c| c != b'>') {
                    self.at += 1;
                }
                self.at = (self.at + 1).min(self.s.len());
                Value::String(self.text(start, self.at))
            }
            Some(_) => self.word(depth),
        }
    }

    /// A quoted string, with Python's common escapes.
    fn string(&mut self, quote: u8) -> String {
        self.at += 1;
        let mut out = Vec::new();
        while let Some(c) = self.peek() {
            self.at += 1;
            match c {
                b'\\' => {
                    if let Some(e) = self.peek() {
                        self.at += 1;
                        out.push(match e {
                            b'n' => b'\n',
                            b't' => b'\t',
                            other => other,
                        });
                    }
                }
                c if c == quote => break,
                c => out.push(c),
            }
        }
        String::from_utf8_lossy(&out).into_owned()
    }

    fn dict(&mut self, depth: usize) -> Value {
        let mut out = Map::new();
        loop {
            self.skip_ws();
            match self.peek() {
                None => return Value::Object(out),
                Some(b'}') => {
                    self.at += 1;
                    return Value::Object(out);
                }
                Some(b',') => {
                    self.at += 1;
                    continue;
                }
                _ => {}
            }
            let before = self.at;
            let key = match self.value(depth) {
                Value::String(s) => s,
                other => other.to_string(),
            };
            if !self.eat(b':') {
                if self.at == before {
                    self.at += 1;
                }
                continue;
            }
            let v = self.value(depth);
            if out.len() < MAX_ITEMS {
                out.insert(key, v);
            }
        }
    }

    fn list(&mut self, close: u8, depth: usize) -> Value {
        let mut out = Vec::new();
        loop {
            self.skip_ws();
            match self.peek() {
                None => return Value::Array(out),
                Some(c) if c == close => {
                    self.at += 1;
                    return Value::Array(out);
                }
                Some(b',') => {
                    self.at += 1;
                    continue;
                }
                Some(b')' | b']' | b'}') => {
                    // A bracket that closes something else: the text is broken; stop here.
                    return Value::Array(out);
                }
                _ => {}
            }
            let before = self.at;
            let v = self.value(depth);
            if out.len() < MAX_ITEMS {
                out.push(v);
            }
            if self.at == before {
                self.at += 1;
            }
        }
    }

    /// A bare word: a number, `True` / `False` / `None`, a call `Name(...)`, or text up to the
    /// next separator at this depth.
    fn word(&mut self, depth: usize) -> Value {
        let start = self.at;
        while self.peek().is_some_and(|c| {
            !matches!(
                c,
                b',' | b'(' | b')' | b'[' | b']' | b'{' | b'}' | b':' | b'='
            ) && !c.is_ascii_whitespace()
        }) {
            self.at += 1;
        }
        let word = self.text(start, self.at);
        if self.peek() == Some(b'(') && !word.is_empty() {
            self.at += 1;
            let args = self.kwargs(depth + 1);
            self.eat(b')');
            return Value::Object(args);
        }
        if word.is_empty() {
            // A stray separator: step over it.
            self.at += 1;
            return Value::Null;
        }
        match word.as_str() {
            "True" => Value::Bool(true),
            "False" => Value::Bool(false),
            "None" => Value::Null,
            w => number(w).unwrap_or_else(|| Value::String(w.to_string())),
        }
    }

    /// Skips one value without building it (past the depth bound).
    fn skip_item(&mut self) {
        let mut depth = 0usize;
        while let Some(c) = self.peek() {
            match c {
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' | b'}' => {
                    if depth == 0 {
                        return;
                    }
                    depth -= 1;
                }
                b',' if depth == 0 => return,
                b'\'' | b'"' => {
                    self.string(c);
                    continue;
                }
                _ => {}
            }
            self.at += 1;
        }
    }
}

fn number(w: &str) -> Option<Value> {
    if let Ok(i) = w.parse::<i64>() {
        return Some(Value::from(i));
    }
    let f = w.parse::<f64>().ok()?;
    // `inf`, `nan` parse as floats in Rust; they are not numbers JSON can hold.
    if !f.is_finite() || w.chars().any(char::is_alphabetic) && !w.contains(['e', 'E']) {
        return None;
    }
    Number::from_f64(f).map(Value::Number)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_vllm_non_default_args() {
        let v = value(
            "{'model': 'm/x', 'port': 8894, 'trust_remote_code': True, 'gpu_memory_utilization': 0.95, \
             'kv_transfer_config': KVTransferConfig(kv_connector='L', kv_rank=None, \
             extra={'lmcache.mp.port': 5555}), 'async_scheduling': False}",
        );
        assert_eq!(v["model"], "m/x");
        assert_eq!(v["port"], 8894);
        assert_eq!(v["trust_remote_code"], true);
        assert_eq!(v["gpu_memory_utilization"], 0.95);
        assert_eq!(v["kv_transfer_config"]["kv_connector"], "L");
        assert_eq!(v["kv_transfer_config"]["extra"]["lmcache.mp.port"], 5555);
        assert_eq!(v["async_scheduling"], false);
    }

    #[test]
    fn reads_a_config_line_with_bare_words_enums_and_calls() {
        let m = keyword_args(
            "model='M', speculative_config=None, tokenizer_mode=auto, dtype=torch.bfloat16, \
             max_seq_len=196608, observability_config=ObservabilityConfig(a=None, b=0.01), \
             compilation_config={'mode': <CompilationMode.VLLM_COMPILE: 3>, 'sizes': [1, 2]}, \
             enable_prefix_caching=True",
        );
        assert_eq!(m["model"], "M");
        assert_eq!(m["speculative_config"], Value::Null);
        assert_eq!(m["tokenizer_mode"], "auto");
        assert_eq!(m["dtype"], "torch.bfloat16");
        assert_eq!(m["max_seq_len"], 196_608);
        assert_eq!(m["observability_config"]["b"], 0.01);
        assert_eq!(
            m["compilation_config"]["mode"],
            "<CompilationMode.VLLM_COMPILE: 3>"
        );
        assert_eq!(m["compilation_config"]["sizes"], json!([1, 2]));
        assert_eq!(m["enable_prefix_caching"], true);
    }

    #[test]
    fn reads_sglang_server_args() {
        let v = value(
            "ServerArgs(model_path='amd/GLM', tp_size=2, context_length=None, \
             model_loader_extra_config='{\"a\": true}', cuda_graph_bs=[1, 2, 4], dtype='auto')",
        );
        assert_eq!(v["model_path"], "amd/GLM");
        assert_eq!(v["tp_size"], 2);
        assert_eq!(v["context_length"], Value::Null);
        assert_eq!(v["model_loader_extra_config"], "{\"a\": true}");
        assert_eq!(v["cuda_graph_bs"], json!([1, 2, 4]));
    }

    #[test]
    fn broken_and_hostile_text_ends_the_read_without_panicking() {
        for text in [
            "{'a': ",
            "ServerArgs(a=1, b=[1, 2",
            "))))]]]}}}",
            "{'a' 1, 'b': 2}",
            "'unterminated",
            "a=, =b, c==d",
            &"[".repeat(100_000),
            &"{'k': ".repeat(10_000),
            "<<<<",
            "x=inf, y=nan, z=1e400, w=-0.5",
        ] {
            let _ = value(text);
            let _ = keyword_args(text);
        }
        let m = keyword_args("x=inf, y=nan, w=-0.5");
        assert_eq!(m["x"], "inf");
        assert_eq!(m["y"], "nan");
        assert_eq!(m["w"], -0.5);
    }
}
