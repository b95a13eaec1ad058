"""fudaya's data contract: loading, schema checks, the typed model, checks and rules engines.

Never imports the generator or ReportLab (the dependency graph runs generator -> validator -> data).
"""
