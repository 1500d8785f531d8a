/* block
   comment */ BEGIN // line comment
/ 1 /* in predicate */ /
{ /**/ trace(1); /* trailing */ }
