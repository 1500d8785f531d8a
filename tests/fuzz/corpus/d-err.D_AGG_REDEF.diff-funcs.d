/* One aggregation, two aggregating functions. */
BEGIN { @a = count(); @a = sum(1); }
