"""One router per resource: jobs, programs (compile and run), health (and metrics)."""
