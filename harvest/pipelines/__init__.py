"""Item pipelines shared by every spider: dedup, then durable output."""
