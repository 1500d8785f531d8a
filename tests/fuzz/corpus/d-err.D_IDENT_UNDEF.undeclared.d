/* A variable read before anything assigned it. */
BEGIN { trace(nosuchvar); }
