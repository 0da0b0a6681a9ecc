;; engram's scan kernel (WebAssembly SIMD). Compiled by scripts/build-kernel.ts into
;; kernel-wasm.ts; edit this file, then run `npx tsx scripts/build-kernel.ts`.
;;
;; Layout rules the caller keeps: rows are `stride` floats apart, `stride` is a multiple of 16
;; (four v128 accumulators per step, no scalar tail; padding is zero in rows and query), and
;; `tags[row]` = scope code (low 3 bits) | session number << 3; `importance` is f32 per row,
;; `updatedAt` and `decay` f64 per row (recency = exp(-max(0, now - updatedAt) * decay)).
;; `lex` is an f32 per row (the query's BM25 scores), read only when `wlex` is not 0: the
;; relevance term is then `wrel * dot + wlex * lex[row]`.
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

;; 8-bit rows against an i16 query: `bytes` (a multiple of 16) codes at p, as many i16 at q.
  ;; Each step widens 16 codes to two i16x8 and multiplies-adds pairs into i32 lanes
  ;; (i32x4.dot_i16x8_s); |code| ≤ 127 and |query| ≤ 32767 keep the sum inside i32 up to 512 dims.
  ;; Two steps of 16 codes per loop turn (four accumulators in flight), then one more
  ;; step when `bytes` is an odd multiple of 16.
  (func $dot8 (param $p i32) (param $q i32) (param $bytes i32) (result i32)
    (local $end i32) (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128) (local $r v128) (local $s v128)
    (local.set $end (i32.add (local.get $p) (i32.and (local.get $bytes) (i32.const -32))))
    (block $done
      (br_if $done (i32.lt_u (local.get $bytes) (i32.const 32)))
      (loop $step
        (local.set $r (v128.load (local.get $p)))
        (local.set $s (v128.load offset=16 (local.get $p)))
        (local.set $a0 (i32x4.add (local.get $a0) (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $r)) (v128.load (local.get $q)))))
        (local.set $a1 (i32x4.add (local.get $a1) (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $r)) (v128.load offset=16 (local.get $q)))))
        (local.set $a2 (i32x4.add (local.get $a2) (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $s)) (v128.load offset=32 (local.get $q)))))
        (local.set $a3 (i32x4.add (local.get $a3) (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $s)) (v128.load offset=48 (local.get $q)))))
        (local.set $p (i32.add (local.get $p) (i32.const 32)))
        (local.set $q (i32.add (local.get $q) (i32.const 64)))
        (br_if $step (i32.lt_u (local.get $p) (local.get $end)))))
    (if (i32.and (local.get $bytes) (i32.const 16))
      (then
        (local.set $r (v128.load (local.get $p)))
        (local.set $a0 (i32x4.add (local.get $a0) (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $r)) (v128.load (local.get $q)))))
        (local.set $a1 (i32x4.add (local.get $a1) (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $r)) (v128.load offset=16 (local.get $q)))))))
    (local.set $a0 (i32x4.add (i32x4.add (local.get $a0) (local.get $a1)) (i32x4.add (local.get $a2) (local.get $a3))))
    (i32.add
      (i32.add (i32x4.extract_lane 0 (local.get $a0)) (i32x4.extract_lane 1 (local.get $a0)))
      (i32.add (i32x4.extract_lane 2 (local.get $a0)) (i32x4.extract_lane 3 (local.get $a0)))))

  ;; One row's dot product: f32 rows (codes = 0), or 8-bit codes times the row's scale (codes = 1;
  ;; the query's own scale is folded into the caller's relevance weight).
  (func $rowDot (param $codes i32) (param $p i32) (param $q i32) (param $stride i32) (param $scales i32) (param $row i32) (result f32)
    (if (result f32) (local.get $codes)
      (then (f32.mul
        (f32.convert_i32_s (call $dot8 (local.get $p) (local.get $q) (local.get $stride)))
        (f32.load (i32.add (local.get $scales) (i32.shl (local.get $row) (i32.const 2))))))
      (else (call $dot (local.get $p) (local.get $q) (i32.shl (local.get $stride) (i32.const 2))))))

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

  ;; One pass: filter by tag, dot product, blend, bounded top-k. Recency needs exp (imported:
  ;; WebAssembly has none), so it is computed only for rows whose upper bound (recency = 1)
  ;; could still enter the heap; once the heap is full that is a small fraction of rows. The
  ;; bound is summed in the same order as the score, so skipping never changes the result.
  ;; Returns how many heap entries were written (min(k, rows that passed the filter)).
  (func (export "scan")
    (param $vec i32) (param $tags i32) (param $imp i32) (param $upd i32) (param $decay i32)
    (param $n i32) (param $stride i32) (param $query i32) (param $mask i32) (param $session i32)
    (param $wrel f32) (param $wrec f64) (param $wimp f32) (param $recMax f32) (param $now f64)
    (param $heap i32) (param $k i32) (param $lex i32) (param $wlex f32) (param $codes i32) (param $scales i32) (result i32)
    (local $row i32) (local $count i32) (local $tag i32) (local $p i32) (local $bytes i32)
    (local $rel f32) (local $impTerm f32) (local $age f64) (local $score f32) (local $threshold f32)
    (local.set $bytes (select (local.get $stride) (i32.shl (local.get $stride) (i32.const 2)) (local.get $codes)))
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
            (local.set $rel (f32.mul (local.get $wrel) (call $rowDot (local.get $codes) (local.get $p) (local.get $query) (local.get $stride) (local.get $scales) (local.get $row))))
            (if (f32.ne (local.get $wlex) (f32.const 0))
              (then (local.set $rel (f32.add (local.get $rel)
                (f32.mul (local.get $wlex) (f32.load (i32.add (local.get $lex) (i32.shl (local.get $row) (i32.const 2)))))))))
            (local.set $impTerm (f32.mul (local.get $wimp) (f32.load (i32.add (local.get $imp) (i32.shl (local.get $row) (i32.const 2))))))
            (if (i32.or
                  (i32.lt_u (local.get $count) (local.get $k))
                  (f32.gt (f32.add (f32.add (local.get $rel) (local.get $recMax)) (local.get $impTerm)) (local.get $threshold)))
              (then
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
                        (local.set $threshold (f32.load (local.get $heap)))))))))))
        (local.set $p (i32.add (local.get $p) (local.get $bytes)))
        (local.set $row (i32.add (local.get $row) (i32.const 1)))
        (br $rows)))
    (local.get $count))

  ;; Dot products of every row with `nq` queries (each `stride` floats, or `stride` i16 against
;; 8-bit codes, times each row's scale): out[row * nq + q].
  ;; Each row is read from memory once and stays in L1 across the queries.
  (func (export "dots")
    (param $vec i32) (param $n i32) (param $stride i32) (param $queries i32) (param $nq i32) (param $out i32) (param $codes i32) (param $scales i32)
    (local $row i32) (local $q i32) (local $p i32) (local $bytes i32) (local $qbytes i32)
    (local.set $bytes (select (local.get $stride) (i32.shl (local.get $stride) (i32.const 2)) (local.get $codes)))
    (local.set $qbytes (select (i32.shl (local.get $stride) (i32.const 1)) (i32.shl (local.get $stride) (i32.const 2)) (local.get $codes)))
    (local.set $p (local.get $vec))
    (block $done
      (loop $rows
        (br_if $done (i32.ge_u (local.get $row) (local.get $n)))
        (local.set $q (i32.const 0))
        (block $next
          (loop $queries
            (br_if $next (i32.ge_u (local.get $q) (local.get $nq)))
            (f32.store (local.get $out)
              (call $rowDot (local.get $codes) (local.get $p) (i32.add (local.get $queries) (i32.mul (local.get $q) (local.get $qbytes))) (local.get $stride) (local.get $scales) (local.get $row)))
            (local.set $out (i32.add (local.get $out) (i32.const 4)))
            (local.set $q (i32.add (local.get $q) (i32.const 1)))
            (br $queries)))
        (local.set $p (i32.add (local.get $p) (local.get $bytes)))
        (local.set $row (i32.add (local.get $row) (i32.const 1)))
        (br $rows))))

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
