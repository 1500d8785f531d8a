/*
 * Bucket edges in BPF: quantize's log2 by shifts (zero, both signs, the
 * extremes), lquantize's underflow/overflow and unsigned division, and
 * llquantize's magnitudes, each with an increment.
 */
#pragma D option quiet

BEGIN
{
	@q = quantize(0);
	@q = quantize(1);
	@q = quantize(-1, 2);
	@q = quantize(3, 5);
	@q = quantize(4);
	@q = quantize(-5);
	@qmax = quantize(9223372036854775807);
	@qmax = quantize(4611686018427387904, 3);
	@qmin = quantize(-9223372036854775807 - 1);
	@l = lquantize(-11, -10, 10, 5);
	@l = lquantize(-10, -10, 10, 5);
	@l = lquantize(-6, -10, 10, 5, 2);
	@l = lquantize(0, -10, 10, 5);
	@l = lquantize(9, -10, 10, 5);
	@l = lquantize(10, -10, 10, 5, 3);
	@l = lquantize(9223372036854775807, -10, 10, 5);
	@l = lquantize(-9223372036854775807 - 1, -10, 10, 5);
	@ll = llquantize(0, 10, 0, 2, 20);
	@ll = llquantize(1, 10, 0, 2, 20);
	@ll = llquantize(9, 10, 0, 2, 20);
	@ll = llquantize(10, 10, 0, 2, 20);
	@ll = llquantize(15, 10, 0, 2, 20, 4);
	@ll = llquantize(999, 10, 0, 2, 20);
	@ll = llquantize(1000, 10, 0, 2, 20, 2);
	@ll = llquantize(-15, 10, 0, 2, 20);
	exit(0);
}
