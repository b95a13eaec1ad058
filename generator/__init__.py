"""fudaya's print engine: draws a validated game model into print-ready PDFs with ReportLab."""
