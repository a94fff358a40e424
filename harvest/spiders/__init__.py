"""harvest's spiders: trending, github_search, blogs."""
