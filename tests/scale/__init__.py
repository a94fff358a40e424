"""Scale-out tests: several crawl processes sharing one frontier and one state in a real Redis."""
