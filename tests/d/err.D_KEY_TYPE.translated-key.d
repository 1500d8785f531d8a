/*
 * Translated data has DTrace's dynamic type, which may not be an
 * aggregation key (dt_idcook_sign).
 */
BEGIN
{
	@[curlwpsinfo] = count();
}
