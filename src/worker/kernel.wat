;; engram's scan kernel (WebAssembly SIMD). Compiled by scripts/build-kernel.ts into
;; kernel-wasm.ts; edit this file, then run `npx tsx scripts/build-kernel.ts`.
;;
;; Layout rules the caller keeps: rows are `stride` floats apart, `stride` is a multiple of 16
;; (four v128 accumulators per step, no scalar tail; padding is zero in rows and query), and
;; `tags[row]` = scope code (low 3 bits) | session number << 3; `importance` is f32 per row,
;; `updatedAt` and `decay` f64 per row (recency = exp(-max(0, now - updatedAt) * decay)).
;; `lex` is an f32 per row (the query's BM25 scores), read only when `wlex` is not 0: the
;; relevance term is then `wrel * dot + wlex * lex[row]`.
;; 8-bit rows (matrix.ts, codes 'i8') are stored four to a block, interleaved: 16 codes of row 0,
;; 16 of row 1, 16 of row 2, 16 of row 3, then the next 16 codes of each (a block is 4 · stride
;; bytes; the vector area is rounded up to whole blocks). Even-indexed codes are stored + 128
;; (unsigned), odd ones as signed bytes. Read as i16 lanes, lane i = 256 · odd + (even + 128); see
;; $dot8x4 for how the query is laid out so that two multiply-adds give the dot product.
;; A heap entry is 8 bytes: score (f32) then row (i32). The heap is a min-heap on score; on
;; equal scores the later row is "smaller", so ties keep the earlier row.
(module
  (import "env" "exp" (func $exp (param f64) (result f64)))
  (import "env" "memory" (memory 1))

  (func $dot (param $p i32) (param $q i32) (param $bytes i32) (result f32)
    (local $end i32) (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128)
    (local.set $end (i32.add (local.get $p) (local.get $bytes)))
    (block $done
      (br_if $done (i32.eqz (local.get $bytes)))
      (loop $step
        (local.set $a0 (f32x4.add (local.get $a0) (f32x4.mul (v128.load (local.get $p)) (v128.load (local.get $q)))))
        (local.set $a1 (f32x4.add (local.get $a1) (f32x4.mul (v128.load offset=16 (local.get $p)) (v128.load offset=16 (local.get $q)))))
        (local.set $a2 (f32x4.add (local.get $a2) (f32x4.mul (v128.load offset=32 (local.get $p)) (v128.load offset=32 (local.get $q)))))
        (local.set $a3 (f32x4.add (local.get $a3) (f32x4.mul (v128.load offset=48 (local.get $p)) (v128.load offset=48 (local.get $q)))))
        (local.set $p (i32.add (local.get $p) (i32.const 64)))
        (local.set $q (i32.add (local.get $q) (i32.const 64)))
        (br_if $step (i32.lt_u (local.get $p) (local.get $end)))))
    (local.set $a0 (f32x4.add (f32x4.add (local.get $a0) (local.get $a1)) (f32x4.add (local.get $a2) (local.get $a3))))
    (f32.add
      (f32.add (f32x4.extract_lane 0 (local.get $a0)) (f32x4.extract_lane 1 (local.get $a0)))
      (f32.add (f32x4.extract_lane 2 (local.get $a0)) (f32x4.extract_lane 3 (local.get $a0)))))

;; Four interleaved 8-bit rows (one block, at p) against the query at q: the four raw dot
  ;; products, each + `128 · Σ even query codes` (the caller subtracts it). Per 16 codes the query
  ;; holds A (8 i16: the even codes) then B (8 i16: odd − 256 · even), so for a row's lane
  ;; L = 256 · h + l (h the odd code, l the even code + 128):
  ;;   dot(L, A) + dot(L >> 8, B) = Σ l · even + h · (256 · even + odd − 256 · even) = Σ l · even + h · odd.
  ;; |query codes| ≤ 127 keeps B inside i16. The i32 sums may wrap in between: the true result
  ;; is small, and wrapping adds and subtracts are exact modulo 2^32.
  (func $dot8x4 (param $p i32) (param $q i32) (param $bytes i32) (result v128)
    (local $end i32) (local $a v128) (local $b v128) (local $l v128)
    (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128) (local $x v128) (local $y v128)
    (local.set $end (i32.add (local.get $p) (i32.shl (local.get $bytes) (i32.const 2))))
    (block $done
      (br_if $done (i32.eqz (local.get $bytes)))
      (loop $step
        (local.set $a (v128.load (local.get $q)))
        (local.set $b (v128.load offset=16 (local.get $q)))
        (local.set $l (v128.load (local.get $p)))
        (local.set $a0 (i32x4.add (local.get $a0) (i32x4.add (i32x4.dot_i16x8_s (local.get $l) (local.get $a)) (i32x4.dot_i16x8_s (i16x8.shr_s (local.get $l) (i32.const 8)) (local.get $b)))))
        (local.set $l (v128.load offset=16 (local.get $p)))
        (local.set $a1 (i32x4.add (local.get $a1) (i32x4.add (i32x4.dot_i16x8_s (local.get $l) (local.get $a)) (i32x4.dot_i16x8_s (i16x8.shr_s (local.get $l) (i32.const 8)) (local.get $b)))))
        (local.set $l (v128.load offset=32 (local.get $p)))
        (local.set $a2 (i32x4.add (local.get $a2) (i32x4.add (i32x4.dot_i16x8_s (local.get $l) (local.get $a)) (i32x4.dot_i16x8_s (i16x8.shr_s (local.get $l) (i32.const 8)) (local.get $b)))))
        (local.set $l (v128.load offset=48 (local.get $p)))
        (local.set $a3 (i32x4.add (local.get $a3) (i32x4.add (i32x4.dot_i16x8_s (local.get $l) (local.get $a)) (i32x4.dot_i16x8_s (i16x8.shr_s (local.get $l) (i32.const 8)) (local.get $b)))))
        (local.set $p (i32.add (local.get $p) (i32.const 64)))
        (local.set $q (i32.add (local.get $q) (i32.const 32)))
        (br_if $step (i32.lt_u (local.get $p) (local.get $end)))))
    ;; Transposing add: x = [a0₀+a0₁, a1₀+a1₁, a0₂+a0₃, a1₂+a1₃], y the same for a2, a3, then
    ;; [Σa0, Σa1, Σa2, Σa3].
    (local.set $x (i32x4.add
      (i8x16.shuffle 0 1 2 3 16 17 18 19 8 9 10 11 24 25 26 27 (local.get $a0) (local.get $a1))
      (i8x16.shuffle 4 5 6 7 20 21 22 23 12 13 14 15 28 29 30 31 (local.get $a0) (local.get $a1))))
    (local.set $y (i32x4.add
      (i8x16.shuffle 0 1 2 3 16 17 18 19 8 9 10 11 24 25 26 27 (local.get $a2) (local.get $a3))
      (i8x16.shuffle 4 5 6 7 20 21 22 23 12 13 14 15 28 29 30 31 (local.get $a2) (local.get $a3))))
    (i32x4.add
      (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $x) (local.get $y))
      (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $x) (local.get $y))))

  ;; One block's four dot products as f32: (raw − correction) · each row's scale (the query's
  ;; own scale is folded into the caller's weights).
  (func $block8 (param $p i32) (param $q i32) (param $stride i32) (param $correction i32) (param $scales i32) (result v128)
    (f32x4.mul
      (f32x4.convert_i32x4_s (i32x4.sub (call $dot8x4 (local.get $p) (local.get $q) (local.get $stride)) (i32x4.splat (local.get $correction))))
      (v128.load (local.get $scales))))

  (func $less (param $a i32) (param $b i32) (result i32)
    (local $sa f32) (local $sb f32)
    (local.set $sa (f32.load (local.get $a)))
    (local.set $sb (f32.load (local.get $b)))
    (if (result i32) (f32.lt (local.get $sa) (local.get $sb))
      (then (i32.const 1))
      (else
        (i32.and
          (f32.eq (local.get $sa) (local.get $sb))
          (i32.gt_s (i32.load offset=4 (local.get $a)) (i32.load offset=4 (local.get $b)))))))

  (func $swap (param $a i32) (param $b i32)
    (local $t i64)
    (local.set $t (i64.load (local.get $a)))
    (i64.store (local.get $a) (i64.load (local.get $b)))
    (i64.store (local.get $b) (local.get $t)))

  (func $at (param $heap i32) (param $i i32) (result i32)
    (i32.add (local.get $heap) (i32.shl (local.get $i) (i32.const 3))))

  (func $siftUp (param $heap i32) (param $i i32)
    (local $parent i32)
    (block $done
      (loop $up
        (br_if $done (i32.eqz (local.get $i)))
        (local.set $parent (i32.shr_u (i32.sub (local.get $i) (i32.const 1)) (i32.const 1)))
        (br_if $done (i32.eqz (call $less (call $at (local.get $heap) (local.get $i)) (call $at (local.get $heap) (local.get $parent)))))
        (call $swap (call $at (local.get $heap) (local.get $i)) (call $at (local.get $heap) (local.get $parent)))
        (local.set $i (local.get $parent))
        (br $up))))

  (func $siftDown (param $heap i32) (param $count i32) (param $i i32)
    (local $left i32) (local $right i32) (local $smallest i32)
    (block $done
      (loop $down
        (local.set $left (i32.add (i32.shl (local.get $i) (i32.const 1)) (i32.const 1)))
        (local.set $right (i32.add (local.get $left) (i32.const 1)))
        (local.set $smallest (local.get $i))
        (if (i32.lt_u (local.get $left) (local.get $count))
          (then (if (call $less (call $at (local.get $heap) (local.get $left)) (call $at (local.get $heap) (local.get $smallest)))
            (then (local.set $smallest (local.get $left))))))
        (if (i32.lt_u (local.get $right) (local.get $count))
          (then (if (call $less (call $at (local.get $heap) (local.get $right)) (call $at (local.get $heap) (local.get $smallest)))
            (then (local.set $smallest (local.get $right))))))
        (br_if $done (i32.eq (local.get $smallest) (local.get $i)))
        (call $swap (call $at (local.get $heap) (local.get $i)) (call $at (local.get $heap) (local.get $smallest)))
        (local.set $i (local.get $smallest))
        (br $down))))

;; Offers one row to the bounded top-k: `rel` is its relevance term, `impTerm` its weighted
  ;; importance. Recency needs exp (imported: WebAssembly has none), so it is computed only when
  ;; the row's upper bound (recency = 1) could still enter the heap; once the heap is full that
  ;; is a small fraction of rows. The bound is summed in the same order as the score, so skipping
  ;; never changes the result. Returns the new count and threshold (the heap root once full).
  (func $offer
    (param $row i32) (param $rel f32) (param $impTerm f32) (param $count i32) (param $threshold f32)
    (param $heap i32) (param $k i32) (param $upd i32) (param $decay i32) (param $wrec f64) (param $recMax f32) (param $now f64)
    (result i32 f32)
    (local $age f64) (local $score f32)
    (if (i32.and
          (i32.ge_u (local.get $count) (local.get $k))
          (i32.eqz (f32.gt (f32.add (f32.add (local.get $rel) (local.get $recMax)) (local.get $impTerm)) (local.get $threshold))))
      (then (return (local.get $count) (local.get $threshold))))
    (local.set $age (f64.sub (local.get $now) (f64.load (i32.add (local.get $upd) (i32.shl (local.get $row) (i32.const 3))))))
    (local.set $age (f64.max (local.get $age) (f64.const 0)))
    (local.set $score
      (f32.add
        (f32.add
          (local.get $rel)
          (f32.demote_f64
            (f64.mul
              (local.get $wrec)
              (call $exp (f64.neg (f64.mul (local.get $age) (f64.load (i32.add (local.get $decay) (i32.shl (local.get $row) (i32.const 3))))))))))
        (local.get $impTerm)))
    (if (i32.lt_u (local.get $count) (local.get $k))
      (then
        (f32.store (call $at (local.get $heap) (local.get $count)) (local.get $score))
        (i32.store offset=4 (call $at (local.get $heap) (local.get $count)) (local.get $row))
        (call $siftUp (local.get $heap) (local.get $count))
        (local.set $count (i32.add (local.get $count) (i32.const 1)))
        (if (i32.eq (local.get $count) (local.get $k))
          (then (local.set $threshold (f32.load (local.get $heap))))))
      (else
        (if (f32.gt (local.get $score) (local.get $threshold))
          (then
            (f32.store (local.get $heap) (local.get $score))
            (i32.store offset=4 (local.get $heap) (local.get $row))
            (call $siftDown (local.get $heap) (local.get $k) (i32.const 0))
            (local.set $threshold (f32.load (local.get $heap)))))))
    (local.get $count) (local.get $threshold))

  ;; One pass over f32 rows: filter by tag, dot product, blend, bounded top-k.
  ;; Returns how many heap entries were written (min(k, rows that passed the filter)).
  (func (export "scan")
    (param $vec i32) (param $tags i32) (param $imp i32) (param $upd i32) (param $decay i32)
    (param $n i32) (param $stride i32) (param $query i32) (param $mask i32) (param $session i32)
    (param $wrel f32) (param $wrec f64) (param $wimp f32) (param $recMax f32) (param $now f64)
    (param $heap i32) (param $k i32) (param $lex i32) (param $wlex f32) (result i32)
    (local $row i32) (local $count i32) (local $tag i32) (local $p i32) (local $bytes i32)
    (local $rel f32) (local $threshold f32)
    (local.set $bytes (i32.shl (local.get $stride) (i32.const 2)))
    (local.set $p (local.get $vec))
    (local.set $threshold (f32.const -inf))
    (if (i32.eqz (local.get $k)) (then (return (i32.const 0))))
    (block $done
      (loop $rows
        (br_if $done (i32.ge_u (local.get $row) (local.get $n)))
        (local.set $tag (i32.load (i32.add (local.get $tags) (i32.shl (local.get $row) (i32.const 2)))))
        (if (i32.and
              (i32.ne (i32.and (local.get $tag) (local.get $mask)) (i32.const 0))
              (i32.or
                (i32.ne (i32.and (local.get $tag) (i32.const 7)) (i32.const 2))
                (i32.eq (i32.shr_u (local.get $tag) (i32.const 3)) (local.get $session))))
          (then
            (local.set $rel (f32.mul (local.get $wrel) (call $dot (local.get $p) (local.get $query) (local.get $bytes))))
            (if (f32.ne (local.get $wlex) (f32.const 0))
              (then (local.set $rel (f32.add (local.get $rel)
                (f32.mul (local.get $wlex) (f32.load (i32.add (local.get $lex) (i32.shl (local.get $row) (i32.const 2)))))))))
            (call $offer (local.get $row) (local.get $rel)
              (f32.mul (local.get $wimp) (f32.load (i32.add (local.get $imp) (i32.shl (local.get $row) (i32.const 2)))))
              (local.get $count) (local.get $threshold)
              (local.get $heap) (local.get $k) (local.get $upd) (local.get $decay) (local.get $wrec) (local.get $recMax) (local.get $now))
            (local.set $threshold)
            (local.set $count)))
        (local.set $p (i32.add (local.get $p) (local.get $bytes)))
        (local.set $row (i32.add (local.get $row) (i32.const 1)))
        (br $rows)))
    (local.get $count))

  ;; Which of the four rows from `row` pass the scope/session filter and exist (row + lane < n),
  ;; as an i32x4 mask. Reads four tags: the caller keeps 16 readable bytes past the last one.
  (func $passes4 (param $tags i32) (param $row i32) (param $n i32) (param $mask i32) (param $session i32) (result v128)
    (local $tag v128)
    (local.set $tag (v128.load (i32.add (local.get $tags) (i32.shl (local.get $row) (i32.const 2)))))
    (v128.and
      (v128.and
        (i32x4.ne (v128.and (local.get $tag) (i32x4.splat (local.get $mask))) (i32x4.splat (i32.const 0)))
        (v128.or
          (i32x4.ne (v128.and (local.get $tag) (i32x4.splat (i32.const 7))) (i32x4.splat (i32.const 2)))
          (i32x4.eq (i32x4.shr_u (local.get $tag) (i32.const 3)) (i32x4.splat (local.get $session)))))
      (i32x4.lt_s (v128.const i32x4 0 1 2 3) (i32x4.splat (i32.sub (local.get $n) (local.get $row))))))

  ;; One pass over 8-bit rows, a block of four at a time: the filter, the four dot products and
  ;; their upper bounds (recency = 1) in SIMD, and only the rows whose bound may enter the heap
  ;; offered one by one, in row order (so ties keep the earlier row). `correction` is the
  ;; query's 128 · Σ even codes (see $dot8x4); 32 bytes after the heap are scratch.
  ;; Per-row columns are read 16 bytes at a time: the caller keeps them readable past row n.
  (func (export "scan8")
    (param $vec i32) (param $tags i32) (param $imp i32) (param $upd i32) (param $decay i32)
    (param $n i32) (param $stride i32) (param $query i32) (param $correction i32) (param $mask i32) (param $session i32)
    (param $wrel f32) (param $wrec f64) (param $wimp f32) (param $recMax f32) (param $now f64)
    (param $heap i32) (param $k i32) (param $lex i32) (param $wlex f32) (param $scales i32) (param $dots i32) (result i32)
    (local $row i32) (local $count i32) (local $p i32) (local $tmp i32) (local $bits i32) (local $lane i32) (local $at i32)
    (local $pass v128) (local $rel v128) (local $impTerm v128) (local $threshold f32)
    (local.set $p (local.get $vec))
    (local.set $threshold (f32.const -inf))
    (if (i32.eqz (local.get $k)) (then (return (i32.const 0))))
    (local.set $tmp (call $at (local.get $heap) (local.get $k)))
    (block $done
      (loop $blocks
        (br_if $done (i32.ge_u (local.get $row) (local.get $n)))
        (local.set $pass (call $passes4 (local.get $tags) (local.get $row) (local.get $n) (local.get $mask) (local.get $session)))
        (if (v128.any_true (local.get $pass))
          (then
            (local.set $at (i32.shl (local.get $row) (i32.const 2)))
            ;; `dots` (when not 0): each row's code dot computed already (sparse8), less no correction.
            (local.set $rel (f32x4.mul (f32x4.splat (local.get $wrel))
              (if (result v128) (local.get $dots)
                (then (f32x4.mul
                  (f32x4.convert_i32x4_s (v128.load (i32.add (local.get $dots) (local.get $at))))
                  (v128.load (i32.add (local.get $scales) (local.get $at)))))
                (else (call $block8 (local.get $p) (local.get $query) (local.get $stride) (local.get $correction) (i32.add (local.get $scales) (local.get $at)))))))
            (if (f32.ne (local.get $wlex) (f32.const 0))
              (then (local.set $rel (f32x4.add (local.get $rel)
                (f32x4.mul (f32x4.splat (local.get $wlex)) (v128.load (i32.add (local.get $lex) (local.get $at))))))))
            (local.set $impTerm (f32x4.mul (f32x4.splat (local.get $wimp)) (v128.load (i32.add (local.get $imp) (local.get $at)))))
            ;; While the heap fills every passing row is offered; then only those whose bound beats the threshold.
            (if (i32.ge_u (local.get $count) (local.get $k))
              (then (local.set $pass (v128.and (local.get $pass)
                (f32x4.gt (f32x4.add (f32x4.add (local.get $rel) (f32x4.splat (local.get $recMax))) (local.get $impTerm)) (f32x4.splat (local.get $threshold)))))))
            (local.set $bits (i32x4.bitmask (local.get $pass)))
            (if (local.get $bits)
              (then
                (v128.store (local.get $tmp) (local.get $rel))
                (v128.store offset=16 (local.get $tmp) (local.get $impTerm))
                (local.set $lane (i32.const 0))
                (loop $lanes
                  (if (i32.and (local.get $bits) (i32.shl (i32.const 1) (local.get $lane)))
                    (then
                      (local.set $at (i32.add (local.get $tmp) (i32.shl (local.get $lane) (i32.const 2))))
                      (call $offer (i32.add (local.get $row) (local.get $lane)) (f32.load (local.get $at)) (f32.load offset=16 (local.get $at))
                        (local.get $count) (local.get $threshold)
                        (local.get $heap) (local.get $k) (local.get $upd) (local.get $decay) (local.get $wrec) (local.get $recMax) (local.get $now))
                      (local.set $threshold)
                      (local.set $count)))
                  (local.set $lane (i32.add (local.get $lane) (i32.const 1)))
                  (br_if $lanes (i32.lt_u (local.get $lane) (i32.const 4))))))))
        (local.set $p (i32.add (local.get $p) (i32.shl (local.get $stride) (i32.const 2))))
        (local.set $row (i32.add (local.get $row) (i32.const 4)))
        (br $blocks)))
    (local.get $count))

  ;; Dot products of every f32 row with `nq` queries (each `stride` floats): out[row * nq + q].
  ;; Each row is read from memory once and stays in L1 across the queries.
  (func (export "dots")
    (param $vec i32) (param $n i32) (param $stride i32) (param $queries i32) (param $nq i32) (param $out i32)
    (local $row i32) (local $q i32) (local $p i32) (local $bytes i32)
    (local.set $bytes (i32.shl (local.get $stride) (i32.const 2)))
    (local.set $p (local.get $vec))
    (block $done
      (loop $rows
        (br_if $done (i32.ge_u (local.get $row) (local.get $n)))
        (local.set $q (i32.const 0))
        (block $next
          (loop $queries
            (br_if $next (i32.ge_u (local.get $q) (local.get $nq)))
            (f32.store (local.get $out)
              (call $dot (local.get $p) (i32.add (local.get $queries) (i32.mul (local.get $q) (local.get $bytes))) (local.get $bytes)))
            (local.set $out (i32.add (local.get $out) (i32.const 4)))
            (local.set $q (i32.add (local.get $q) (i32.const 1)))
            (br $queries)))
        (local.set $p (i32.add (local.get $p) (local.get $bytes)))
        (local.set $row (i32.add (local.get $row) (i32.const 1)))
        (br $rows))))

  ;; The same for 8-bit rows, a block at a time, query-major: `nq` queries laid out as for scan8
  ;; (`stride` i16 each, corrections[q] an i32), out[q * rows + row] = code dot · the row's scale
  ;; for every row of every block touched, `rows` being n rounded up to 4.
  (func (export "dots8")
    (param $vec i32) (param $n i32) (param $stride i32) (param $queries i32) (param $corrections i32) (param $nq i32) (param $out i32) (param $scales i32)
    (local $row i32) (local $q i32) (local $p i32) (local $at i32) (local $rows i32)
    (local.set $p (local.get $vec))
    (local.set $rows (i32.shl (i32.and (i32.add (local.get $n) (i32.const 3)) (i32.const -4)) (i32.const 2)))
    (block $done
      (loop $blocks
        (br_if $done (i32.ge_u (local.get $row) (local.get $n)))
        (local.set $q (i32.const 0))
        (local.set $at (i32.add (local.get $out) (i32.shl (local.get $row) (i32.const 2))))
        (block $next
          (loop $queries
            (br_if $next (i32.ge_u (local.get $q) (local.get $nq)))
            (v128.store (local.get $at) (call $block8 (local.get $p)
              (i32.add (local.get $queries) (i32.mul (local.get $q) (i32.shl (local.get $stride) (i32.const 1))))
              (local.get $stride)
              (i32.load (i32.add (local.get $corrections) (i32.shl (local.get $q) (i32.const 2))))
              (i32.add (local.get $scales) (i32.shl (local.get $row) (i32.const 2)))))
            (local.set $at (i32.add (local.get $at) (local.get $rows)))
            (local.set $q (i32.add (local.get $q) (i32.const 1)))
            (br $queries)))
        (local.set $p (i32.add (local.get $p) (i32.shl (local.get $stride) (i32.const 2))))
        (local.set $row (i32.add (local.get $row) (i32.const 4)))
        (br $blocks))))

  ;; Code dots of rows [0, n) against a sparse query, from codes held dimension by dimension
  ;; (columns.ts): dimension d's codes of every row, signed, 16-byte aligned, rows past the last
  ;; zero. The query's dimensions come in `pairs`: `columns` holds each pair's two column addresses
  ;; (i32s) and `codes` its two query codes as one i32 (the first in the low 16 bits; |code| ≤ 127,
  ;; a lone last dimension pairs with itself at code 0). out[row] (i32) = Σ code · query code, for
  ;; rows rounded up to 16: the same integers as $dot8x4 less its correction, reading only those
  ;; columns. Per 16 rows and pair, the two columns' bytes are interleaved, widened to i16, and
  ;; one i32x4.dot_i16x8_s takes both dimensions' products of four rows at once.
  (func (export "sparse8") (param $columns i32) (param $codes i32) (param $pairs i32) (param $n i32) (param $out i32)
    (local $row i32) (local $i i32) (local $at i32) (local $va v128) (local $vb v128) (local $lo v128) (local $hi v128) (local $q v128)
    (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128)
    (block $done
      (loop $rows
        (br_if $done (i32.ge_u (local.get $row) (local.get $n)))
        (local.set $a0 (v128.const i32x4 0 0 0 0))
        (local.set $a1 (v128.const i32x4 0 0 0 0))
        (local.set $a2 (v128.const i32x4 0 0 0 0))
        (local.set $a3 (v128.const i32x4 0 0 0 0))
        (local.set $i (i32.const 0))
        (block $next
          (loop $dims
            (br_if $next (i32.ge_u (local.get $i) (local.get $pairs)))
            (local.set $at (i32.add (local.get $columns) (i32.shl (local.get $i) (i32.const 3))))
            (local.set $q (i32x4.splat (i32.load (i32.add (local.get $codes) (i32.shl (local.get $i) (i32.const 2))))))
            (local.set $va (v128.load (i32.add (i32.load (local.get $at)) (local.get $row))))
            (local.set $vb (v128.load (i32.add (i32.load offset=4 (local.get $at)) (local.get $row))))
            (local.set $lo (i8x16.shuffle 0 16 1 17 2 18 3 19 4 20 5 21 6 22 7 23 (local.get $va) (local.get $vb)))
            (local.set $hi (i8x16.shuffle 8 24 9 25 10 26 11 27 12 28 13 29 14 30 15 31 (local.get $va) (local.get $vb)))
            (local.set $a0 (i32x4.add (local.get $a0) (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $lo)) (local.get $q))))
            (local.set $a1 (i32x4.add (local.get $a1) (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $lo)) (local.get $q))))
            (local.set $a2 (i32x4.add (local.get $a2) (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $hi)) (local.get $q))))
            (local.set $a3 (i32x4.add (local.get $a3) (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $hi)) (local.get $q))))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $dims)))
        (local.set $at (i32.add (local.get $out) (i32.shl (local.get $row) (i32.const 2))))
        (v128.store (local.get $at) (local.get $a0))
        (v128.store offset=16 (local.get $at) (local.get $a1))
        (v128.store offset=32 (local.get $at) (local.get $a2))
        (v128.store offset=48 (local.get $at) (local.get $a3))
        (local.set $row (i32.add (local.get $row) (i32.const 16)))
        (br $rows))))

  ;; The codes by dimension (columns.ts) from `blocks` whole blocks of four 8-bit rows at `src`
  ;; (the layout above, `stride` bytes a row), `chunks` 16-code chunks of each: code d of row r goes
  ;; to out + d · capacity + row0 + r, as a signed byte (even codes lose their + 128). Per block and
  ;; chunk, a 4 × 16 byte transpose: the four rows' bytes interleaved in pairs, then the pairs in
  ;; pairs, so each 32-bit lane holds one dimension's four codes, stored at once in its column.
  (func (export "columns8") (param $src i32) (param $blocks i32) (param $stride i32) (param $chunks i32) (param $out i32) (param $capacity i32) (param $row0 i32)
    (local $block i32) (local $chunk i32) (local $at i32) (local $p i32) (local $bias v128)
    (local $r0 v128) (local $r1 v128) (local $r2 v128) (local $r3 v128)
    (local $t0 v128) (local $t1 v128) (local $t2 v128) (local $t3 v128)
    (local $u0 v128) (local $u1 v128) (local $u2 v128) (local $u3 v128)
    (local.set $bias (v128.const i8x16 0x80 0 0x80 0 0x80 0 0x80 0 0x80 0 0x80 0 0x80 0 0x80 0))
    (block $done
      (loop $blocks
        (br_if $done (i32.ge_u (local.get $block) (local.get $blocks)))
        (local.set $chunk (i32.const 0))
        (block $next
          (loop $chunks
            (br_if $next (i32.ge_u (local.get $chunk) (local.get $chunks)))
            (local.set $at (i32.add (local.get $src) (i32.add (i32.mul (local.get $block) (i32.shl (local.get $stride) (i32.const 2))) (i32.shl (local.get $chunk) (i32.const 6)))))
            (local.set $r0 (v128.xor (v128.load (local.get $at)) (local.get $bias)))
            (local.set $r1 (v128.xor (v128.load offset=16 (local.get $at)) (local.get $bias)))
            (local.set $r2 (v128.xor (v128.load offset=32 (local.get $at)) (local.get $bias)))
            (local.set $r3 (v128.xor (v128.load offset=48 (local.get $at)) (local.get $bias)))
            (local.set $t0 (i8x16.shuffle 0 16 1 17 2 18 3 19 4 20 5 21 6 22 7 23 (local.get $r0) (local.get $r1)))
            (local.set $t1 (i8x16.shuffle 8 24 9 25 10 26 11 27 12 28 13 29 14 30 15 31 (local.get $r0) (local.get $r1)))
            (local.set $t2 (i8x16.shuffle 0 16 1 17 2 18 3 19 4 20 5 21 6 22 7 23 (local.get $r2) (local.get $r3)))
            (local.set $t3 (i8x16.shuffle 8 24 9 25 10 26 11 27 12 28 13 29 14 30 15 31 (local.get $r2) (local.get $r3)))
            (local.set $u0 (i8x16.shuffle 0 1 16 17 2 3 18 19 4 5 20 21 6 7 22 23 (local.get $t0) (local.get $t2)))
            (local.set $u1 (i8x16.shuffle 8 9 24 25 10 11 26 27 12 13 28 29 14 15 30 31 (local.get $t0) (local.get $t2)))
            (local.set $u2 (i8x16.shuffle 0 1 16 17 2 3 18 19 4 5 20 21 6 7 22 23 (local.get $t1) (local.get $t3)))
            (local.set $u3 (i8x16.shuffle 8 9 24 25 10 11 26 27 12 13 28 29 14 15 30 31 (local.get $t1) (local.get $t3)))
            ;; Column 16 · chunk, row row0 + 4 · block; then each next dimension a column further.
            (local.set $p (i32.add (i32.add (local.get $out) (i32.mul (i32.shl (local.get $chunk) (i32.const 4)) (local.get $capacity))) (i32.add (local.get $row0) (i32.shl (local.get $block) (i32.const 2)))))
        (v128.store32_lane offset=0 0 (local.get $p) (local.get $u0))
        (local.set $p (i32.add (local.get $p) (local.get $capacity)))
        (v128.store32_lane offset=0 1 (local.get $p) (local.get $u0))
        (local.set $p (i32.add (local.get $p) (local.get $capacity)))
        (v128.store32_lane offset=0 2 (local.get $p) (local.get $u0))
        (local.set $p (i32.add (local.get $p) (local.get $capacity)))
        (v128.store32_lane offset=0 3 (local.get $p) (local.get $u0))
        (local.set $p (i32.add (local.get $p) (local.get $capacity)))
        (v128.store32_lane offset=0 0 (local.get $p) (local.get $u1))
        (local.set $p (i32.add (local.get $p) (local.get $capacity)))
        (v128.store32_lane offset=0 1 (local.get $p) (local.get $u1))
        (local.set $p (i32.add (local.get $p) (local.get $capacity)))
        (v128.store32_lane offset=0 2 (local.get $p) (local.get $u1))
        (local.set $p (i32.add (local.get $p) (local.get $capacity)))
        (v128.store32_lane offset=0 3 (local.get $p) (local.get $u1))
        (local.set $p (i32.add (local.get $p) (local.get $capacity)))
        (v128.store32_lane offset=0 0 (local.get $p) (local.get $u2))
        (local.set $p (i32.add (local.get $p) (local.get $capacity)))
        (v128.store32_lane offset=0 1 (local.get $p) (local.get $u2))
        (local.set $p (i32.add (local.get $p) (local.get $capacity)))
        (v128.store32_lane offset=0 2 (local.get $p) (local.get $u2))
        (local.set $p (i32.add (local.get $p) (local.get $capacity)))
        (v128.store32_lane offset=0 3 (local.get $p) (local.get $u2))
        (local.set $p (i32.add (local.get $p) (local.get $capacity)))
        (v128.store32_lane offset=0 0 (local.get $p) (local.get $u3))
        (local.set $p (i32.add (local.get $p) (local.get $capacity)))
        (v128.store32_lane offset=0 1 (local.get $p) (local.get $u3))
        (local.set $p (i32.add (local.get $p) (local.get $capacity)))
        (v128.store32_lane offset=0 2 (local.get $p) (local.get $u3))
        (local.set $p (i32.add (local.get $p) (local.get $capacity)))
        (v128.store32_lane offset=0 3 (local.get $p) (local.get $u3))
        (local.set $p (i32.add (local.get $p) (local.get $capacity)))
            (local.set $chunk (i32.add (local.get $chunk) (i32.const 1)))
            (br $chunks)))
        (local.set $block (i32.add (local.get $block) (i32.const 1)))
        (br $blocks))))

  ;; The floor: a plain sequential read of `bytes` (a multiple of 64) summed, so nothing is skipped.
  (func (export "read") (param $p i32) (param $bytes i32) (result f32)
    (local $end i32) (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128)
    (local.set $end (i32.add (local.get $p) (local.get $bytes)))
    (block $done
      (br_if $done (i32.eqz (local.get $bytes)))
      (loop $step
        (local.set $a0 (f32x4.add (local.get $a0) (v128.load (local.get $p))))
        (local.set $a1 (f32x4.add (local.get $a1) (v128.load offset=16 (local.get $p))))
        (local.set $a2 (f32x4.add (local.get $a2) (v128.load offset=32 (local.get $p))))
        (local.set $a3 (f32x4.add (local.get $a3) (v128.load offset=48 (local.get $p))))
        (local.set $p (i32.add (local.get $p) (i32.const 64)))
        (br_if $step (i32.lt_u (local.get $p) (local.get $end)))))
    (local.set $a0 (f32x4.add (f32x4.add (local.get $a0) (local.get $a1)) (f32x4.add (local.get $a2) (local.get $a3))))
    (f32.add
      (f32.add (f32x4.extract_lane 0 (local.get $a0)) (f32x4.extract_lane 1 (local.get $a0)))
      (f32.add (f32x4.extract_lane 2 (local.get $a0)) (f32x4.extract_lane 3 (local.get $a0)))))
)
