;; The vector engine's SIMD kernels (simd128). One instance per segment memory; every address is a byte offset in
;; that memory (JS passes addresses above 2 GiB as negative i32, which wasm reads as unsigned). Any dims: the inner
;; loops take 16 floats (or 32 int8 codes) per step, then 4 (or 16), then single elements.
;; Regenerate kernels-wasm.ts with `npx tsx emulator/vector/kernels/build-kernels.ts` after editing.
(module
  (memory (import "env" "mem") 1 65536 shared)

  ;; dot(p, q) over $dims f32 values.
  (func $dot (param $p i32) (param $q i32) (param $dims i32) (result f32)
    (local $j i32) (local $end i32) (local $end16 i32) (local $end4 i32) (local $s f32)
    (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128)
    (local.set $end (i32.shl (local.get $dims) (i32.const 2)))
    (local.set $end16 (i32.and (local.get $end) (i32.const -64)))
    (local.set $end4 (i32.and (local.get $end) (i32.const -16)))
    (block $b16 (loop $l16
      (br_if $b16 (i32.ge_u (local.get $j) (local.get $end16)))
      (local.set $a0 (f32x4.add (local.get $a0) (f32x4.mul
        (v128.load (i32.add (local.get $p) (local.get $j))) (v128.load (i32.add (local.get $q) (local.get $j))))))
      (local.set $a1 (f32x4.add (local.get $a1) (f32x4.mul
        (v128.load offset=16 (i32.add (local.get $p) (local.get $j))) (v128.load offset=16 (i32.add (local.get $q) (local.get $j))))))
      (local.set $a2 (f32x4.add (local.get $a2) (f32x4.mul
        (v128.load offset=32 (i32.add (local.get $p) (local.get $j))) (v128.load offset=32 (i32.add (local.get $q) (local.get $j))))))
      (local.set $a3 (f32x4.add (local.get $a3) (f32x4.mul
        (v128.load offset=48 (i32.add (local.get $p) (local.get $j))) (v128.load offset=48 (i32.add (local.get $q) (local.get $j))))))
      (local.set $j (i32.add (local.get $j) (i32.const 64)))
      (br $l16)))
    (block $b4 (loop $l4
      (br_if $b4 (i32.ge_u (local.get $j) (local.get $end4)))
      (local.set $a0 (f32x4.add (local.get $a0) (f32x4.mul
        (v128.load (i32.add (local.get $p) (local.get $j))) (v128.load (i32.add (local.get $q) (local.get $j))))))
      (local.set $j (i32.add (local.get $j) (i32.const 16)))
      (br $l4)))
    (local.set $a0 (f32x4.add (f32x4.add (local.get $a0) (local.get $a1)) (f32x4.add (local.get $a2) (local.get $a3))))
    (local.set $s (f32.add
      (f32.add (f32x4.extract_lane 0 (local.get $a0)) (f32x4.extract_lane 1 (local.get $a0)))
      (f32.add (f32x4.extract_lane 2 (local.get $a0)) (f32x4.extract_lane 3 (local.get $a0)))))
    (block $b1 (loop $l1
      (br_if $b1 (i32.ge_u (local.get $j) (local.get $end)))
      (local.set $s (f32.add (local.get $s) (f32.mul
        (f32.load (i32.add (local.get $p) (local.get $j))) (f32.load (i32.add (local.get $q) (local.get $j))))))
      (local.set $j (i32.add (local.get $j) (i32.const 4)))
      (br $l1)))
    (local.get $s))

  ;; dot(p, q) and dot(p, p) in one pass (the scan is memory-bound, so the norm comes free).
  (func $dotxx (param $p i32) (param $q i32) (param $dims i32) (result f32 f32)
    (local $j i32) (local $end i32) (local $end8 i32) (local $end4 i32) (local $s f32) (local $t f32) (local $x f32)
    (local $a0 v128) (local $a1 v128) (local $b0 v128) (local $b1 v128) (local $x0 v128) (local $x1 v128)
    (local.set $end (i32.shl (local.get $dims) (i32.const 2)))
    (local.set $end8 (i32.and (local.get $end) (i32.const -32)))
    (local.set $end4 (i32.and (local.get $end) (i32.const -16)))
    (block $b8 (loop $l8
      (br_if $b8 (i32.ge_u (local.get $j) (local.get $end8)))
      (local.set $x0 (v128.load (i32.add (local.get $p) (local.get $j))))
      (local.set $x1 (v128.load offset=16 (i32.add (local.get $p) (local.get $j))))
      (local.set $a0 (f32x4.add (local.get $a0) (f32x4.mul (local.get $x0) (v128.load (i32.add (local.get $q) (local.get $j))))))
      (local.set $a1 (f32x4.add (local.get $a1) (f32x4.mul (local.get $x1) (v128.load offset=16 (i32.add (local.get $q) (local.get $j))))))
      (local.set $b0 (f32x4.add (local.get $b0) (f32x4.mul (local.get $x0) (local.get $x0))))
      (local.set $b1 (f32x4.add (local.get $b1) (f32x4.mul (local.get $x1) (local.get $x1))))
      (local.set $j (i32.add (local.get $j) (i32.const 32)))
      (br $l8)))
    (block $b4 (loop $l4
      (br_if $b4 (i32.ge_u (local.get $j) (local.get $end4)))
      (local.set $x0 (v128.load (i32.add (local.get $p) (local.get $j))))
      (local.set $a0 (f32x4.add (local.get $a0) (f32x4.mul (local.get $x0) (v128.load (i32.add (local.get $q) (local.get $j))))))
      (local.set $b0 (f32x4.add (local.get $b0) (f32x4.mul (local.get $x0) (local.get $x0))))
      (local.set $j (i32.add (local.get $j) (i32.const 16)))
      (br $l4)))
    (local.set $a0 (f32x4.add (local.get $a0) (local.get $a1)))
    (local.set $b0 (f32x4.add (local.get $b0) (local.get $b1)))
    (local.set $s (f32.add
      (f32.add (f32x4.extract_lane 0 (local.get $a0)) (f32x4.extract_lane 1 (local.get $a0)))
      (f32.add (f32x4.extract_lane 2 (local.get $a0)) (f32x4.extract_lane 3 (local.get $a0)))))
    (local.set $t (f32.add
      (f32.add (f32x4.extract_lane 0 (local.get $b0)) (f32x4.extract_lane 1 (local.get $b0)))
      (f32.add (f32x4.extract_lane 2 (local.get $b0)) (f32x4.extract_lane 3 (local.get $b0)))))
    (block $b1 (loop $l1
      (br_if $b1 (i32.ge_u (local.get $j) (local.get $end)))
      (local.set $x (f32.load (i32.add (local.get $p) (local.get $j))))
      (local.set $s (f32.add (local.get $s) (f32.mul (local.get $x) (f32.load (i32.add (local.get $q) (local.get $j))))))
      (local.set $t (f32.add (local.get $t) (f32.mul (local.get $x) (local.get $x))))
      (local.set $j (i32.add (local.get $j) (i32.const 4)))
      (br $l1)))
    (local.get $s) (local.get $t))

  ;; sum((p - q)^2) over $dims f32 values, computed on the differences (no |p|^2 - 2pq + |q|^2 cancellation).
  (func $l2 (param $p i32) (param $q i32) (param $dims i32) (result f32)
    (local $j i32) (local $end i32) (local $end16 i32) (local $end4 i32) (local $s f32) (local $d f32)
    (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128) (local $v v128)
    (local.set $end (i32.shl (local.get $dims) (i32.const 2)))
    (local.set $end16 (i32.and (local.get $end) (i32.const -64)))
    (local.set $end4 (i32.and (local.get $end) (i32.const -16)))
    (block $b16 (loop $l16
      (br_if $b16 (i32.ge_u (local.get $j) (local.get $end16)))
      (local.set $v (f32x4.sub (v128.load (i32.add (local.get $p) (local.get $j))) (v128.load (i32.add (local.get $q) (local.get $j)))))
      (local.set $a0 (f32x4.add (local.get $a0) (f32x4.mul (local.get $v) (local.get $v))))
      (local.set $v (f32x4.sub (v128.load offset=16 (i32.add (local.get $p) (local.get $j))) (v128.load offset=16 (i32.add (local.get $q) (local.get $j)))))
      (local.set $a1 (f32x4.add (local.get $a1) (f32x4.mul (local.get $v) (local.get $v))))
      (local.set $v (f32x4.sub (v128.load offset=32 (i32.add (local.get $p) (local.get $j))) (v128.load offset=32 (i32.add (local.get $q) (local.get $j)))))
      (local.set $a2 (f32x4.add (local.get $a2) (f32x4.mul (local.get $v) (local.get $v))))
      (local.set $v (f32x4.sub (v128.load offset=48 (i32.add (local.get $p) (local.get $j))) (v128.load offset=48 (i32.add (local.get $q) (local.get $j)))))
      (local.set $a3 (f32x4.add (local.get $a3) (f32x4.mul (local.get $v) (local.get $v))))
      (local.set $j (i32.add (local.get $j) (i32.const 64)))
      (br $l16)))
    (block $b4 (loop $l4
      (br_if $b4 (i32.ge_u (local.get $j) (local.get $end4)))
      (local.set $v (f32x4.sub (v128.load (i32.add (local.get $p) (local.get $j))) (v128.load (i32.add (local.get $q) (local.get $j)))))
      (local.set $a0 (f32x4.add (local.get $a0) (f32x4.mul (local.get $v) (local.get $v))))
      (local.set $j (i32.add (local.get $j) (i32.const 16)))
      (br $l4)))
    (local.set $a0 (f32x4.add (f32x4.add (local.get $a0) (local.get $a1)) (f32x4.add (local.get $a2) (local.get $a3))))
    (local.set $s (f32.add
      (f32.add (f32x4.extract_lane 0 (local.get $a0)) (f32x4.extract_lane 1 (local.get $a0)))
      (f32.add (f32x4.extract_lane 2 (local.get $a0)) (f32x4.extract_lane 3 (local.get $a0)))))
    (block $b1 (loop $l1
      (br_if $b1 (i32.ge_u (local.get $j) (local.get $end)))
      (local.set $d (f32.sub (f32.load (i32.add (local.get $p) (local.get $j))) (f32.load (i32.add (local.get $q) (local.get $j)))))
      (local.set $s (f32.add (local.get $s) (f32.mul (local.get $d) (local.get $d))))
      (local.set $j (i32.add (local.get $j) (i32.const 4)))
      (br $l1)))
    (local.get $s))

  ;; sum(p[j] * q[j]) over $dims int8 codes, exact in i32: 64 codes per step in four accumulators, then 16, then 1.
  (func $dot8 (param $p i32) (param $q i32) (param $dims i32) (result i32)
    (local $j i32) (local $end64 i32) (local $end16 i32) (local $s i32)
    (local $a v128) (local $b v128) (local $acc0 v128) (local $acc1 v128) (local $acc2 v128) (local $acc3 v128)
    (local.set $end64 (i32.and (local.get $dims) (i32.const -64)))
    (local.set $end16 (i32.and (local.get $dims) (i32.const -16)))
    (block $b64 (loop $l64
      (br_if $b64 (i32.ge_u (local.get $j) (local.get $end64)))
      (local.set $a (v128.load (i32.add (local.get $p) (local.get $j))))
      (local.set $b (v128.load (i32.add (local.get $q) (local.get $j))))
      (local.set $acc0 (i32x4.add (local.get $acc0) (i32x4.add
        (i32x4.extadd_pairwise_i16x8_s (i16x8.extmul_low_i8x16_s (local.get $a) (local.get $b)))
        (i32x4.extadd_pairwise_i16x8_s (i16x8.extmul_high_i8x16_s (local.get $a) (local.get $b))))))
      (local.set $a (v128.load offset=16 (i32.add (local.get $p) (local.get $j))))
      (local.set $b (v128.load offset=16 (i32.add (local.get $q) (local.get $j))))
      (local.set $acc1 (i32x4.add (local.get $acc1) (i32x4.add
        (i32x4.extadd_pairwise_i16x8_s (i16x8.extmul_low_i8x16_s (local.get $a) (local.get $b)))
        (i32x4.extadd_pairwise_i16x8_s (i16x8.extmul_high_i8x16_s (local.get $a) (local.get $b))))))
      (local.set $a (v128.load offset=32 (i32.add (local.get $p) (local.get $j))))
      (local.set $b (v128.load offset=32 (i32.add (local.get $q) (local.get $j))))
      (local.set $acc2 (i32x4.add (local.get $acc2) (i32x4.add
        (i32x4.extadd_pairwise_i16x8_s (i16x8.extmul_low_i8x16_s (local.get $a) (local.get $b)))
        (i32x4.extadd_pairwise_i16x8_s (i16x8.extmul_high_i8x16_s (local.get $a) (local.get $b))))))
      (local.set $a (v128.load offset=48 (i32.add (local.get $p) (local.get $j))))
      (local.set $b (v128.load offset=48 (i32.add (local.get $q) (local.get $j))))
      (local.set $acc3 (i32x4.add (local.get $acc3) (i32x4.add
        (i32x4.extadd_pairwise_i16x8_s (i16x8.extmul_low_i8x16_s (local.get $a) (local.get $b)))
        (i32x4.extadd_pairwise_i16x8_s (i16x8.extmul_high_i8x16_s (local.get $a) (local.get $b))))))
      (local.set $j (i32.add (local.get $j) (i32.const 64)))
      (br $l64)))
    (block $b16 (loop $l16
      (br_if $b16 (i32.ge_u (local.get $j) (local.get $end16)))
      (local.set $a (v128.load (i32.add (local.get $p) (local.get $j))))
      (local.set $b (v128.load (i32.add (local.get $q) (local.get $j))))
      (local.set $acc0 (i32x4.add (local.get $acc0) (i32x4.add
        (i32x4.extadd_pairwise_i16x8_s (i16x8.extmul_low_i8x16_s (local.get $a) (local.get $b)))
        (i32x4.extadd_pairwise_i16x8_s (i16x8.extmul_high_i8x16_s (local.get $a) (local.get $b))))))
      (local.set $j (i32.add (local.get $j) (i32.const 16)))
      (br $l16)))
    (local.set $acc0 (i32x4.add (i32x4.add (local.get $acc0) (local.get $acc1)) (i32x4.add (local.get $acc2) (local.get $acc3))))
    (local.set $s (i32.add
      (i32.add (i32x4.extract_lane 0 (local.get $acc0)) (i32x4.extract_lane 1 (local.get $acc0)))
      (i32.add (i32x4.extract_lane 2 (local.get $acc0)) (i32x4.extract_lane 3 (local.get $acc0)))))
    (block $b1 (loop $l1
      (br_if $b1 (i32.ge_u (local.get $j) (local.get $dims)))
      (local.set $s (i32.add (local.get $s) (i32.mul
        (i32.load8_s (i32.add (local.get $p) (local.get $j))) (i32.load8_s (i32.add (local.get $q) (local.get $j))))))
      (local.set $j (i32.add (local.get $j) (i32.const 1)))
      (br $l1)))
    (local.get $s))

  ;; sum(p[j] * q[j]) over $dims int8 codes p and i16 codes q (the query, widened once): the row is only
  ;; sign-extended and multiplied by i32x4.dot_i16x8_s, ~1.3x faster than int8 x int8 (the int8 pass is compute-bound).
  (func $dot8w (param $p i32) (param $q i32) (param $dims i32) (result i32)
    (local $j i32) (local $k i32) (local $end32 i32) (local $end16 i32) (local $s i32)
    (local $a v128) (local $acc0 v128) (local $acc1 v128) (local $acc2 v128) (local $acc3 v128)
    (local.set $end32 (i32.and (local.get $dims) (i32.const -32)))
    (local.set $end16 (i32.and (local.get $dims) (i32.const -16)))
    (block $b32 (loop $l32
      (br_if $b32 (i32.ge_u (local.get $j) (local.get $end32)))
      (local.set $a (v128.load (i32.add (local.get $p) (local.get $j))))
      (local.set $acc0 (i32x4.add (local.get $acc0) (i32x4.dot_i16x8_s
        (i16x8.extend_low_i8x16_s (local.get $a)) (v128.load (i32.add (local.get $q) (local.get $k))))))
      (local.set $acc1 (i32x4.add (local.get $acc1) (i32x4.dot_i16x8_s
        (i16x8.extend_high_i8x16_s (local.get $a)) (v128.load offset=16 (i32.add (local.get $q) (local.get $k))))))
      (local.set $a (v128.load offset=16 (i32.add (local.get $p) (local.get $j))))
      (local.set $acc2 (i32x4.add (local.get $acc2) (i32x4.dot_i16x8_s
        (i16x8.extend_low_i8x16_s (local.get $a)) (v128.load offset=32 (i32.add (local.get $q) (local.get $k))))))
      (local.set $acc3 (i32x4.add (local.get $acc3) (i32x4.dot_i16x8_s
        (i16x8.extend_high_i8x16_s (local.get $a)) (v128.load offset=48 (i32.add (local.get $q) (local.get $k))))))
      (local.set $j (i32.add (local.get $j) (i32.const 32)))
      (local.set $k (i32.add (local.get $k) (i32.const 64)))
      (br $l32)))
    (block $b16 (loop $l16
      (br_if $b16 (i32.ge_u (local.get $j) (local.get $end16)))
      (local.set $a (v128.load (i32.add (local.get $p) (local.get $j))))
      (local.set $acc0 (i32x4.add (local.get $acc0) (i32x4.dot_i16x8_s
        (i16x8.extend_low_i8x16_s (local.get $a)) (v128.load (i32.add (local.get $q) (local.get $k))))))
      (local.set $acc1 (i32x4.add (local.get $acc1) (i32x4.dot_i16x8_s
        (i16x8.extend_high_i8x16_s (local.get $a)) (v128.load offset=16 (i32.add (local.get $q) (local.get $k))))))
      (local.set $j (i32.add (local.get $j) (i32.const 16)))
      (local.set $k (i32.add (local.get $k) (i32.const 32)))
      (br $l16)))
    (local.set $acc0 (i32x4.add (i32x4.add (local.get $acc0) (local.get $acc1)) (i32x4.add (local.get $acc2) (local.get $acc3))))
    (local.set $s (i32.add
      (i32.add (i32x4.extract_lane 0 (local.get $acc0)) (i32x4.extract_lane 1 (local.get $acc0)))
      (i32.add (i32x4.extract_lane 2 (local.get $acc0)) (i32x4.extract_lane 3 (local.get $acc0)))))
    (block $b1 (loop $l1
      (br_if $b1 (i32.ge_u (local.get $j) (local.get $dims)))
      (local.set $s (i32.add (local.get $s) (i32.mul
        (i32.load8_s (i32.add (local.get $p) (local.get $j))) (i32.load16_s (i32.add (local.get $q) (local.get $k))))))
      (local.set $j (i32.add (local.get $j) (i32.const 1)))
      (local.set $k (i32.add (local.get $k) (i32.const 2)))
      (br $l1)))
    (local.get $s))

  ;; 1 - dot(x, q) / |x| for a unit-length q; a zero row scores 1 (as far as possible from anything).
  (func $cosdist (param $p i32) (param $q i32) (param $dims i32) (result f32)
    (local $d f32) (local $xx f32)
    (call $dotxx (local.get $p) (local.get $q) (local.get $dims))
    (local.set $xx)
    (local.set $d)
    (select
      (f32.sub (f32.const 1) (f32.div (local.get $d) (f32.sqrt (local.get $xx))))
      (f32.const 1)
      (f32.gt (local.get $xx) (f32.const 0))))

  ;; out[i] = dot(row i, q), rows contiguous at $base (centroid ranking while indexing, where it is compute-bound).
  (func (export "dot_f32") (param $base i32) (param $n i32) (param $dims i32) (param $q i32) (param $out i32)
    (local $i i32) (local $p i32) (local $stride i32)
    (local.set $stride (i32.shl (local.get $dims) (i32.const 2)))
    (local.set $p (local.get $base))
    (block $done (loop $rows
      (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
      (f32.store (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 2)))
        (call $dot (local.get $p) (local.get $q) (local.get $dims)))
      (local.set $p (i32.add (local.get $p) (local.get $stride)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $rows))))

  ;; out[i] = cosine distance of row i of the contiguous rows at $base (stride dims * 4).
  (func (export "cos_f32") (param $base i32) (param $n i32) (param $dims i32) (param $q i32) (param $out i32)
    (local $i i32) (local $p i32) (local $stride i32)
    (local.set $stride (i32.shl (local.get $dims) (i32.const 2)))
    (local.set $p (local.get $base))
    (block $done (loop $rows
      (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
      (f32.store (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 2)))
        (call $cosdist (local.get $p) (local.get $q) (local.get $dims)))
      (local.set $p (i32.add (local.get $p) (local.get $stride)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $rows))))

  ;; out[i] = cosine distance of row ids[i] (u32 row numbers relative to $base).
  (func (export "cos_f32_ids") (param $base i32) (param $ids i32) (param $n i32) (param $dims i32) (param $q i32) (param $out i32)
    (local $i i32) (local $stride i32)
    (local.set $stride (i32.shl (local.get $dims) (i32.const 2)))
    (block $done (loop $rows
      (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
      (f32.store (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 2)))
        (call $cosdist
          (i32.add (local.get $base) (i32.mul (i32.load (i32.add (local.get $ids) (i32.shl (local.get $i) (i32.const 2)))) (local.get $stride)))
          (local.get $q) (local.get $dims)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $rows))))

  ;; out[i] = squared euclidean distance of row i of the contiguous rows at $base.
  (func (export "l2_f32") (param $base i32) (param $n i32) (param $dims i32) (param $q i32) (param $out i32)
    (local $i i32) (local $p i32) (local $stride i32)
    (local.set $stride (i32.shl (local.get $dims) (i32.const 2)))
    (local.set $p (local.get $base))
    (block $done (loop $rows
      (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
      (f32.store (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 2)))
        (call $l2 (local.get $p) (local.get $q) (local.get $dims)))
      (local.set $p (i32.add (local.get $p) (local.get $stride)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $rows))))

  ;; out[i] = squared euclidean distance of row ids[i].
  (func (export "l2_f32_ids") (param $base i32) (param $ids i32) (param $n i32) (param $dims i32) (param $q i32) (param $out i32)
    (local $i i32) (local $stride i32)
    (local.set $stride (i32.shl (local.get $dims) (i32.const 2)))
    (block $done (loop $rows
      (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
      (f32.store (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 2)))
        (call $l2
          (i32.add (local.get $base) (i32.mul (i32.load (i32.add (local.get $ids) (i32.shl (local.get $i) (i32.const 2)))) (local.get $stride)))
          (local.get $q) (local.get $dims)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $rows))))

  ;; out[i] = f32(int8 dot of code row i at $base (stride dims) with the query codes at $q).
  (func (export "dot_i8") (param $base i32) (param $n i32) (param $dims i32) (param $q i32) (param $out i32)
    (local $i i32) (local $p i32)
    (local.set $p (local.get $base))
    (block $done (loop $rows
      (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
      (f32.store (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 2)))
        (f32.convert_i32_s (call $dot8 (local.get $p) (local.get $q) (local.get $dims))))
      (local.set $p (i32.add (local.get $p) (local.get $dims)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $rows))))

  ;; out[i] = f32(int8 dot of code row ids[i]).
  (func (export "dot_i8_ids") (param $base i32) (param $ids i32) (param $n i32) (param $dims i32) (param $q i32) (param $out i32)
    (local $i i32)
    (block $done (loop $rows
      (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
      (f32.store (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 2)))
        (f32.convert_i32_s (call $dot8
          (i32.add (local.get $base) (i32.mul (i32.load (i32.add (local.get $ids) (i32.shl (local.get $i) (i32.const 2)))) (local.get $dims)))
          (local.get $q) (local.get $dims))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $rows))))

  ;; int8 estimate of each row's distance: out[i] = $c + $w * norms[i] + $b * scales[i] * dot(code row i, q), with
  ;; the query codes $q widened to i16 (2 bytes per dim).
  ;; Cosine: c = 1, w = 0, b = -(query scale). Euclidean: c = |q|^2, w = 1, b = -2 (query scale).
  ;; $scales and $norms point at row 0's entries (f32 each).
  (func (export "estimate_i8") (param $base i32) (param $n i32) (param $dims i32) (param $q i32) (param $out i32)
      (param $scales i32) (param $norms i32) (param $c f32) (param $w f32) (param $b f32)
    (local $i i32) (local $p i32) (local $o i32)
    (local.set $p (local.get $base))
    (block $done (loop $rows
      (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
      (local.set $o (i32.shl (local.get $i) (i32.const 2)))
      (f32.store (i32.add (local.get $out) (local.get $o))
        (f32.add
          (f32.add (local.get $c) (f32.mul (local.get $w) (f32.load (i32.add (local.get $norms) (local.get $o)))))
          (f32.mul (f32.mul (local.get $b) (f32.load (i32.add (local.get $scales) (local.get $o))))
            (f32.convert_i32_s (call $dot8w (local.get $p) (local.get $q) (local.get $dims))))))
      (local.set $p (i32.add (local.get $p) (local.get $dims)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $rows))))

  ;; As estimate_i8 for the rows whose numbers (u32, relative to row 0) are at $ids.
  (func (export "estimate_i8_ids") (param $base i32) (param $ids i32) (param $n i32) (param $dims i32) (param $q i32)
      (param $out i32) (param $scales i32) (param $norms i32) (param $c f32) (param $w f32) (param $b f32)
    (local $i i32) (local $r i32) (local $o i32)
    (block $done (loop $rows
      (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
      (local.set $r (i32.load (i32.add (local.get $ids) (i32.shl (local.get $i) (i32.const 2)))))
      (local.set $o (i32.shl (local.get $r) (i32.const 2)))
      (f32.store (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 2)))
        (f32.add
          (f32.add (local.get $c) (f32.mul (local.get $w) (f32.load (i32.add (local.get $norms) (local.get $o)))))
          (f32.mul (f32.mul (local.get $b) (f32.load (i32.add (local.get $scales) (local.get $o))))
            (f32.convert_i32_s (call $dot8w
              (i32.add (local.get $base) (i32.mul (local.get $r) (local.get $dims))) (local.get $q) (local.get $dims))))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $rows))))

  ;; Per row, the L2 norm of the quantisation residual |x * f - scale * codes|, f = norms[i] (1/|x|) when $normalize
  ;; and 1 otherwise. It bounds how far an int8 estimate can be from the exact dot product (scan-exec.ts).
  (func (export "residuals") (param $src i32) (param $n i32) (param $dims i32) (param $normalize i32)
      (param $codes i32) (param $scales i32) (param $norms i32) (param $out i32)
    (local $i i32) (local $j i32) (local $p i32) (local $c i32) (local $end4 i32)
    (local $f f32) (local $s f32) (local $r f32) (local $sum f32)
    (local $acc v128) (local $vf v128) (local $vs v128) (local $d v128)
    (local.set $end4 (i32.and (local.get $dims) (i32.const -4)))
    (local.set $p (local.get $src))
    (local.set $c (local.get $codes))
    (block $done (loop $rows
      (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
      (local.set $f (select (f32.load (i32.add (local.get $norms) (i32.shl (local.get $i) (i32.const 2))))
        (f32.const 1) (local.get $normalize)))
      (local.set $s (f32.load (i32.add (local.get $scales) (i32.shl (local.get $i) (i32.const 2)))))
      (local.set $vf (f32x4.splat (local.get $f)))
      (local.set $vs (f32x4.splat (local.get $s)))
      (local.set $acc (v128.const f32x4 0 0 0 0))
      (local.set $j (i32.const 0))
      (block $b4 (loop $l4
        (br_if $b4 (i32.ge_u (local.get $j) (local.get $end4)))
        (local.set $d (f32x4.sub
          (f32x4.mul (local.get $vf) (v128.load (i32.add (local.get $p) (i32.shl (local.get $j) (i32.const 2)))))
          (f32x4.mul (local.get $vs) (f32x4.convert_i32x4_s (i32x4.extend_low_i16x8_s (i16x8.extend_low_i8x16_s
            (v128.load32_zero (i32.add (local.get $c) (local.get $j)))))))))
        (local.set $acc (f32x4.add (local.get $acc) (f32x4.mul (local.get $d) (local.get $d))))
        (local.set $j (i32.add (local.get $j) (i32.const 4)))
        (br $l4)))
      (local.set $sum (f32.add
        (f32.add (f32x4.extract_lane 0 (local.get $acc)) (f32x4.extract_lane 1 (local.get $acc)))
        (f32.add (f32x4.extract_lane 2 (local.get $acc)) (f32x4.extract_lane 3 (local.get $acc)))))
      (block $b1 (loop $l1
        (br_if $b1 (i32.ge_u (local.get $j) (local.get $dims)))
        (local.set $r (f32.sub
          (f32.mul (local.get $f) (f32.load (i32.add (local.get $p) (i32.shl (local.get $j) (i32.const 2)))))
          (f32.mul (local.get $s) (f32.convert_i32_s (i32.load8_s (i32.add (local.get $c) (local.get $j)))))))
        (local.set $sum (f32.add (local.get $sum) (f32.mul (local.get $r) (local.get $r))))
        (local.set $j (i32.add (local.get $j) (i32.const 1)))
        (br $l1)))
      (f32.store (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 2))) (f32.sqrt (local.get $sum)))
      (local.set $p (i32.add (local.get $p) (i32.shl (local.get $dims) (i32.const 2))))
      (local.set $c (i32.add (local.get $c) (local.get $dims)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $rows))))

  ;; Quantises $n f32 rows at $src to int8 codes (code = round(x * 127 / max|x|)). Per row: $scales gets the factor
  ;; that turns codes back into the (normalised when $normalize != 0) vector, $norms gets 1/|x| when normalising
  ;; (cosine) and |x|^2 otherwise (euclidean).
  (func (export "quantize") (param $src i32) (param $n i32) (param $dims i32) (param $normalize i32)
                            (param $codes i32) (param $scales i32) (param $norms i32)
    (local $i i32) (local $j i32) (local $p i32) (local $c i32) (local $end4 i32) (local $end16 i32)
    (local $xx f32) (local $f f32) (local $m f32) (local $mult f32) (local $vm v128) (local $vmult v128)
    (local $v0 v128) (local $v1 v128) (local $v2 v128) (local $v3 v128)
    (local.set $end4 (i32.and (local.get $dims) (i32.const -4)))
    (local.set $end16 (i32.and (local.get $dims) (i32.const -16)))
    (local.set $p (local.get $src))
    (local.set $c (local.get $codes))
    (block $done (loop $rows
      (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
      (local.set $xx (call $dot (local.get $p) (local.get $p) (local.get $dims)))
      (local.set $f (f32.const 1))
      (if (local.get $normalize) (then
        (local.set $f (select (f32.div (f32.const 1) (f32.sqrt (local.get $xx))) (f32.const 0)
          (f32.gt (local.get $xx) (f32.const 0))))))
      (f32.store (i32.add (local.get $norms) (i32.shl (local.get $i) (i32.const 2)))
        (select (local.get $f) (local.get $xx) (local.get $normalize)))
      ;; max |x|
      (local.set $vm (v128.const f32x4 0 0 0 0))
      (local.set $j (i32.const 0))
      (block $m4 (loop $lm4
        (br_if $m4 (i32.ge_u (local.get $j) (local.get $end4)))
        (local.set $vm (f32x4.max (local.get $vm) (f32x4.abs (v128.load (i32.add (local.get $p) (i32.shl (local.get $j) (i32.const 2)))))))
        (local.set $j (i32.add (local.get $j) (i32.const 4)))
        (br $lm4)))
      (local.set $m (f32.max
        (f32.max (f32x4.extract_lane 0 (local.get $vm)) (f32x4.extract_lane 1 (local.get $vm)))
        (f32.max (f32x4.extract_lane 2 (local.get $vm)) (f32x4.extract_lane 3 (local.get $vm)))))
      (block $m1 (loop $lm1
        (br_if $m1 (i32.ge_u (local.get $j) (local.get $dims)))
        (local.set $m (f32.max (local.get $m) (f32.abs (f32.load (i32.add (local.get $p) (i32.shl (local.get $j) (i32.const 2)))))))
        (local.set $j (i32.add (local.get $j) (i32.const 1)))
        (br $lm1)))
      (f32.store (i32.add (local.get $scales) (i32.shl (local.get $i) (i32.const 2)))
        (f32.div (f32.mul (local.get $m) (local.get $f)) (f32.const 127)))
      (local.set $mult (select (f32.div (f32.const 127) (local.get $m)) (f32.const 0) (f32.gt (local.get $m) (f32.const 0))))
      (local.set $vmult (f32x4.splat (local.get $mult)))
      ;; codes, 16 per step
      (local.set $j (i32.const 0))
      (block $c16 (loop $lc16
        (br_if $c16 (i32.ge_u (local.get $j) (local.get $end16)))
        (local.set $v0 (i32x4.trunc_sat_f32x4_s (f32x4.nearest (f32x4.mul (local.get $vmult)
          (v128.load (i32.add (local.get $p) (i32.shl (local.get $j) (i32.const 2))))))))
        (local.set $v1 (i32x4.trunc_sat_f32x4_s (f32x4.nearest (f32x4.mul (local.get $vmult)
          (v128.load offset=16 (i32.add (local.get $p) (i32.shl (local.get $j) (i32.const 2))))))))
        (local.set $v2 (i32x4.trunc_sat_f32x4_s (f32x4.nearest (f32x4.mul (local.get $vmult)
          (v128.load offset=32 (i32.add (local.get $p) (i32.shl (local.get $j) (i32.const 2))))))))
        (local.set $v3 (i32x4.trunc_sat_f32x4_s (f32x4.nearest (f32x4.mul (local.get $vmult)
          (v128.load offset=48 (i32.add (local.get $p) (i32.shl (local.get $j) (i32.const 2))))))))
        (v128.store (i32.add (local.get $c) (local.get $j))
          (i8x16.narrow_i16x8_s (i16x8.narrow_i32x4_s (local.get $v0) (local.get $v1)) (i16x8.narrow_i32x4_s (local.get $v2) (local.get $v3))))
        (local.set $j (i32.add (local.get $j) (i32.const 16)))
        (br $lc16)))
      (block $c1 (loop $lc1
        (br_if $c1 (i32.ge_u (local.get $j) (local.get $dims)))
        (i32.store8 (i32.add (local.get $c) (local.get $j))
          (i32.trunc_sat_f32_s (f32.nearest (f32.mul (local.get $mult) (f32.load (i32.add (local.get $p) (i32.shl (local.get $j) (i32.const 2))))))))
        (local.set $j (i32.add (local.get $j) (i32.const 1)))
        (br $lc1)))
      (local.set $p (i32.add (local.get $p) (i32.shl (local.get $dims) (i32.const 2))))
      (local.set $c (i32.add (local.get $c) (local.get $dims)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $rows))))

  ;; Sign sketches: bit j of a row's sketch is set when its code j is negative. n code rows (stride $dims bytes) at
  ;; $codes -> n sketch rows of $bytes bytes at $out ($bytes a multiple of 16, >= dims / 8; the rest is zeros).
  ;; $dims must be a multiple of 16.
  (func (export "signs") (param $codes i32) (param $n i32) (param $dims i32) (param $out i32) (param $bytes i32)
    (local $i i32) (local $j i32) (local $p i32) (local $o i32)
    (local.set $p (local.get $codes))
    (local.set $o (local.get $out))
    (block $done (loop $rows
      (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
      (v128.store (i32.sub (i32.add (local.get $o) (local.get $bytes)) (i32.const 16)) (v128.const i32x4 0 0 0 0))
      (local.set $j (i32.const 0))
      (block $end (loop $cols
        (br_if $end (i32.ge_u (local.get $j) (local.get $dims)))
        (i32.store16 (i32.add (local.get $o) (i32.shr_u (local.get $j) (i32.const 3)))
          (i8x16.bitmask (v128.load (i32.add (local.get $p) (local.get $j)))))
        (local.set $j (i32.add (local.get $j) (i32.const 16)))
        (br $cols)))
      (local.set $p (i32.add (local.get $p) (local.get $dims)))
      (local.set $o (i32.add (local.get $o) (local.get $bytes)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $rows))))

  ;; out[i] = u32 Hamming distance between sketch row i at $base (stride $bytes, a multiple of 16) and the sketch at
  ;; $q. Scalar i64.popcnt: x86 has a popcount instruction for it, while i8x16.popcnt is a table-lookup sequence there.
  (func (export "hamming") (param $base i32) (param $n i32) (param $bytes i32) (param $q i32) (param $out i32)
    (local $i i32) (local $j i32) (local $p i32) (local $a i64) (local $b i64)
    (local.set $p (local.get $base))
    (block $done (loop $rows
      (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
      (local.set $a (i64.const 0))
      (local.set $b (i64.const 0))
      (local.set $j (i32.const 0))
      (block $end (loop $cols
        (br_if $end (i32.ge_u (local.get $j) (local.get $bytes)))
        (local.set $a (i64.add (local.get $a) (i64.popcnt (i64.xor
          (i64.load (i32.add (local.get $p) (local.get $j)))
          (i64.load (i32.add (local.get $q) (local.get $j)))))))
        (local.set $b (i64.add (local.get $b) (i64.popcnt (i64.xor
          (i64.load offset=8 (i32.add (local.get $p) (local.get $j)))
          (i64.load offset=8 (i32.add (local.get $q) (local.get $j)))))))
        (local.set $j (i32.add (local.get $j) (i32.const 16)))
        (br $cols)))
      (i32.store (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 2)))
        (i32.wrap_i64 (i64.add (local.get $a) (local.get $b))))
      (local.set $p (i32.add (local.get $p) (local.get $bytes)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $rows))))
)
