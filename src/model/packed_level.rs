//! The packed form of a result's levels ([`super::Levels`]): per level a presence mask, then
//! only the numbers it records, each a variable-length integer of a few bytes.
//!
//! A whole number is written as itself. A figure is written as a whole number and a power of
//! ten (`46.9` as 469 and 1) when dividing the one by the other gives back the very same f64
//! bits, which is the case for every figure a harness writes with a few decimals; any other
//! figure (`-0.0`, a long binary fraction) is written as its eight bytes. Nothing is rounded:
//! a packed level unpacks to a level equal field for field, bit for bit. The per-request
//! samples, when a level kept any, stay in their own boxes beside the bytes.

#[cfg(test)]
use super::packed_number::POW10;
use super::packed_number::{Reader, read_figure, write_figure, write_varint};
use super::{
    Level, LevelPower, PerUser, Percentiles2, Percentiles3, PowerKind, RequestRate, Samples,
    Throughput,
};

/// Bytes of the presence mask of one level: 38 flags.
const MASK_BYTES: usize = 5;

/// The levels of one result, packed.
#[derive(Clone)]
pub(super) struct PackedLevels {
    /// The count of levels, then each level: its mask and its numbers.
    bytes: Box<[u8]>,
    /// The samples of each level, only when some level kept any.
    samples: Option<Box<[Option<Box<Samples>>]>>,
}

impl PackedLevels {
    pub(super) fn pack(levels: &[Level]) -> Self {
        let mut out = Vec::with_capacity(8 + levels.len() * 64);
        write_varint(&mut out, levels.len() as u64);
        for level in levels {
            pack_level(level, &mut out);
        }
        let samples = levels
            .iter()
            .any(|l| l.samples.is_some())
            .then(|| levels.iter().map(|l| l.samples.clone()).collect());
        PackedLevels {
            bytes: out.into_boxed_slice(),
            samples,
        }
    }

    pub(super) fn len(&self) -> usize {
        usize::try_from(Reader::new(&self.bytes).varint()).unwrap_or(0)
    }

    pub(super) fn unpack(&self) -> Unpack<'_> {
        let mut reader = Reader::new(&self.bytes);
        let count = usize::try_from(reader.varint()).unwrap_or(0);
        Unpack {
            reader,
            index: 0,
            count,
            samples: self.samples.as_deref(),
        }
    }

    pub(super) fn heap_bytes(&self) -> usize {
        self.bytes.len()
            + self
                .samples
                .as_ref()
                .map_or(0, |s| s.len() * std::mem::size_of::<Option<Box<Samples>>>())
    }
}

/// The levels of a packed form, unpacked one at a time.
pub(super) struct Unpack<'a> {
    reader: Reader<'a>,
    index: usize,
    count: usize,
    samples: Option<&'a [Option<Box<Samples>>]>,
}

impl Iterator for Unpack<'_> {
    type Item = Level;

    fn next(&mut self) -> Option<Level> {
        if self.index >= self.count {
            return None;
        }
        let mut level = unpack_level(&mut self.reader);
        if level.samples.is_some() {
            level.samples = self
                .samples
                .and_then(|s| s.get(self.index))
                .cloned()
                .flatten();
        }
        self.index += 1;
        Some(level)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.count - self.index;
        (left, Some(left))
    }
}

/// Writes one level: a mask with one flag per field (and per group of fields), then the
/// present numbers in the order of the flags.
fn pack_level(l: &Level, out: &mut Vec<u8>) {
    // Named field by field: a field added to `Level` fails to compile here until it is packed.
    let Level {
        concurrency,
        request_rate,
        achieved_request_rate,
        max_concurrency,
        mean_in_flight,
        requests,
        failed,
        total_requests,
        error_rate,
        duration_s,
        output_tokens,
        server_output_tokens,
        reasoning_tokens,
        throughput_tok_s,
        per_user_tok_s,
        ttft_s,
        tpot_ms,
        e2e_s,
        gpu_mem_gib,
        power_w,
        samples,
    } = l;
    let at = out.len();
    out.extend_from_slice(&[0; MASK_BYTES]);
    let mut w = Writer {
        out,
        mask: 0,
        bit: 0,
    };
    w.whole(*concurrency);
    w.figure(request_rate.and_then(RequestRate::per_second));
    w.flag(*request_rate == Some(RequestRate::Unbounded));
    w.figure(*achieved_request_rate);
    w.whole(*max_concurrency);
    w.figure(*mean_in_flight);
    w.whole(*requests);
    w.whole(*failed);
    w.whole(*total_requests);
    w.figure(*error_rate);
    w.figure(*duration_s);
    w.whole(*output_tokens);
    w.whole(*server_output_tokens);
    w.whole(*reasoning_tokens);
    let t = throughput_tok_s.as_ref();
    w.flag(t.is_some());
    w.figure(t.and_then(|t| t.decode));
    w.figure(t.and_then(|t| t.prefill));
    w.figure(t.and_then(|t| t.aggregate));
    let u = per_user_tok_s.as_ref();
    w.flag(u.is_some());
    w.figure(u.and_then(|u| u.mean));
    w.figure(u.and_then(|u| u.median));
    w.figure(u.and_then(|u| u.p10));
    let ttft = ttft_s.as_ref();
    w.flag(ttft.is_some());
    w.figure(ttft.and_then(|p| p.p50));
    w.figure(ttft.and_then(|p| p.p95));
    w.figure(ttft.and_then(|p| p.p99));
    for p in [tpot_ms.as_ref(), e2e_s.as_ref()] {
        w.flag(p.is_some());
        w.figure(p.and_then(|p| p.p50));
        w.figure(p.and_then(|p| p.p95));
    }
    w.figure(*gpu_mem_gib);
    let power = power_w.as_ref();
    w.flag(power.is_some());
    w.figure(power.and_then(|p| p.mean));
    let kind = power.and_then(|p| p.kind);
    w.flag(kind == Some(PowerKind::Wall));
    w.flag(kind == Some(PowerKind::Device));
    w.flag(samples.is_some());
    debug_assert!(w.bit as usize <= MASK_BYTES * 8);
    let mask = w.mask.to_le_bytes();
    out[at..at + MASK_BYTES].copy_from_slice(&mask[..MASK_BYTES]);
}

/// Reads one level written by [`pack_level`], flag by flag in the same order.
fn unpack_level(r: &mut Reader<'_>) -> Level {
    let mut mask = [0; 8];
    for b in &mut mask[..MASK_BYTES] {
        *b = r.byte();
    }
    let mut f = Fields {
        reader: r,
        mask: u64::from_le_bytes(mask),
        bit: 0,
    };
    let concurrency = f.whole();
    let rate = f.figure();
    let unbounded = f.flag();
    let request_rate = match (rate, unbounded) {
        (Some(r), _) => Some(RequestRate::PerSecond(r)),
        (None, true) => Some(RequestRate::Unbounded),
        (None, false) => None,
    };
    let achieved_request_rate = f.figure();
    let max_concurrency = f.whole();
    let mean_in_flight = f.figure();
    let requests = f.whole();
    let failed = f.whole();
    let total_requests = f.whole();
    let error_rate = f.figure();
    let duration_s = f.figure();
    let output_tokens = f.whole();
    let server_output_tokens = f.whole();
    let reasoning_tokens = f.whole();
    let throughput_tok_s = f.flag().then(|| Throughput {
        decode: f.figure(),
        prefill: f.figure(),
        aggregate: f.figure(),
    });
    // A group absent still has its fields' flags (all clear): step over them.
    if throughput_tok_s.is_none() {
        f.skip(3);
    }
    let per_user_tok_s = f.flag().then(|| PerUser {
        mean: f.figure(),
        median: f.figure(),
        p10: f.figure(),
    });
    if per_user_tok_s.is_none() {
        f.skip(3);
    }
    let ttft_s = f.flag().then(|| Percentiles3 {
        p50: f.figure(),
        p95: f.figure(),
        p99: f.figure(),
    });
    if ttft_s.is_none() {
        f.skip(3);
    }
    let mut two = || {
        let p = f.flag().then(|| Percentiles2 {
            p50: f.figure(),
            p95: f.figure(),
        });
        if p.is_none() {
            f.skip(2);
        }
        p
    };
    let tpot_ms = two();
    let e2e_s = two();
    let gpu_mem_gib = f.figure();
    let power = f.flag();
    let power_mean = f.figure();
    let kind = match (f.flag(), f.flag()) {
        (true, _) => Some(PowerKind::Wall),
        (false, true) => Some(PowerKind::Device),
        (false, false) => None,
    };
    let power_w = power.then_some(LevelPower {
        mean: power_mean,
        kind,
    });
    // The samples themselves are beside the bytes; an empty box marks that there were some.
    let samples = f.flag().then(Box::default);
    Level {
        concurrency,
        request_rate,
        achieved_request_rate,
        max_concurrency,
        mean_in_flight,
        requests,
        failed,
        total_requests,
        error_rate,
        duration_s,
        output_tokens,
        server_output_tokens,
        reasoning_tokens,
        throughput_tok_s,
        per_user_tok_s,
        ttft_s,
        tpot_ms,
        e2e_s,
        gpu_mem_gib,
        power_w,
        samples,
    }
}

struct Writer<'a> {
    out: &'a mut Vec<u8>,
    mask: u64,
    bit: u32,
}

impl Writer<'_> {
    fn flag(&mut self, set: bool) {
        if set {
            self.mask |= 1 << self.bit;
        }
        self.bit += 1;
    }

    fn whole(&mut self, v: Option<u64>) {
        self.flag(v.is_some());
        if let Some(v) = v {
            write_varint(self.out, v);
        }
    }

    fn figure(&mut self, v: Option<f64>) {
        self.flag(v.is_some());
        if let Some(v) = v {
            write_figure(self.out, v);
        }
    }
}

struct Fields<'r, 'a> {
    reader: &'r mut Reader<'a>,
    mask: u64,
    bit: u32,
}

impl Fields<'_, '_> {
    fn flag(&mut self) -> bool {
        let set = self.mask & (1 << self.bit) != 0;
        self.bit += 1;
        set
    }

    fn skip(&mut self, flags: u32) {
        self.bit += flags;
    }

    fn whole(&mut self) -> Option<u64> {
        self.flag().then(|| self.reader.varint())
    }

    fn figure(&mut self) -> Option<f64> {
        self.flag().then(|| read_figure(self.reader))
    }
}

#[cfg(test)]
#[path = "packed_level_tests.rs"]
mod tests;
