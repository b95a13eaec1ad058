"""PDF/X identification for print files: the keys, the output intent and the metadata a shop's preflight reads.

PDF/X-4 by default (transparency allowed, PDF 1.6); PDF/X-1a:2003 on request (PDF 1.4, no
transparency; `fudaya preflight` reports transparency in a file that claims X-1a). Both carry one
output intent: FOGRA39 (ISO 12647-2 offset on coated paper, the condition most shops' "ISO Coated"
and Japan Color settings sit beside), with a profile built from Fogra's public characterization data
(generator/icc/README.md says how), so every file embeds the profile it names and can be shared.

Only the declaration lives here: that the content is CMYK (print_color), that fonts are embedded
(pdfdoc) and that each page has its TrimBox and BleedBox (the writers) is the rest of the work.
"""
from __future__ import annotations

import uuid
from dataclasses import dataclass
from functools import cache
from html import escape
from pathlib import Path

from reportlab.pdfbase.pdfdoc import (
    PDFArray,
    PDFCatalog,
    PDFDictionary,
    PDFInfo,
    PDFName,
    PDFStream,
    PDFString,
    PDFZCompress,
)
from reportlab.pdfgen.canvas import Canvas

PROFILE = Path(__file__).with_name("icc") / "FOGRA39L_coated.icc"


@dataclass(frozen=True)
class OutputCondition:
    identifier: str   # a reference name in the ICC registry
    info: str         # for people: what the condition is
    registry: str = "http://www.color.org"


FOGRA39 = OutputCondition("FOGRA39", "Coated FOGRA39 (ISO 12647-2:2004), offset on coated paper")


@dataclass(frozen=True)
class Standard:
    name: str                 # the --pdfx choice
    version: str              # GTS_PDFXVersion
    conformance: str | None   # GTS_PDFXConformance (X-1a only)
    pdf_version: tuple[int, int]
    transparency: bool        # whether the standard allows it


STANDARDS = {
    "x-4": Standard("x-4", "PDF/X-4", None, (1, 6), True),
    "x-1a": Standard("x-1a", "PDF/X-1:2003", "PDF/X-1a:2003", (1, 4), False),
}
DEFAULT_STANDARD = "x-4"


@cache
def _profile_bytes() -> bytes:
    return PROFILE.read_bytes()


class _PdfxInfo(PDFInfo):  # type: ignore[misc]  # ReportLab is untyped
    """ReportLab's document information with the PDF/X keys added."""

    def __init__(self, base: PDFInfo, standard: Standard) -> None:
        super().__init__()
        self.__dict__.update(base.__dict__)
        self.standard = standard

    def format(self, document: object) -> bytes:
        entries = {
            "Title": PDFString(self.title), "Author": PDFString(self.author),
            "Producer": PDFString(self.producer), "Creator": PDFString(self.creator),
            "Subject": PDFString(self.subject), "Keywords": PDFString(self.keywords),
            "Trapped": PDFName(self.trapped), "GTS_PDFXVersion": PDFString(self.standard.version),
        }
        entries["CreationDate"] = entries["ModDate"] = PDFString(_pdf_date(document))
        if self.standard.conformance:
            entries["GTS_PDFXConformance"] = PDFString(self.standard.conformance)
        formatted: bytes = PDFDictionary(entries).format(document)
        return formatted


def _pdf_date(document: object) -> str:
    year, month, day, hour, minute, second = document._timeStamp.YMDhms  # type: ignore[attr-defined]
    return f"D:{year:04d}{month:02d}{day:02d}{hour:02d}{minute:02d}{second:02d}Z"


def xmp_packet(*, title: str, producer: str, pdf_date: str, standard: Standard) -> bytes:
    """The XMP metadata PDF/X-4 requires (identification, dates, title, trapping, document ids), its
    dates the document information's ("D:YYYYMMDDhhmmss…", read as UTC) and its id derived from the title
    (the same for the same title, so invariant builds stay byte-identical)."""
    digits = pdf_date.removeprefix("D:")
    date = f"{digits[0:4]}-{digits[4:6]}-{digits[6:8]}T{digits[8:10]}:{digits[10:12]}:{digits[12:14]}Z"
    document_id = uuid.uuid5(uuid.NAMESPACE_URL, f"fudaya:{title}")
    conformance = (f"\n   <pdfxid:GTS_PDFXConformance>{standard.conformance}</pdfxid:GTS_PDFXConformance>"
                   if standard.conformance else "")
    text = f"""<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about=""
    xmlns:dc="http://purl.org/dc/elements/1.1/"
    xmlns:xmp="http://ns.adobe.com/xap/1.0/"
    xmlns:pdf="http://ns.adobe.com/pdf/1.3/"
    xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/"
    xmlns:pdfxid="http://www.npes.org/pdfx/ns/id/">
   <dc:format>application/pdf</dc:format>
   <dc:title><rdf:Alt><rdf:li xml:lang="x-default">{escape(title)}</rdf:li></rdf:Alt></dc:title>
   <xmp:CreateDate>{date}</xmp:CreateDate>
   <xmp:ModifyDate>{date}</xmp:ModifyDate>
   <xmp:MetadataDate>{date}</xmp:MetadataDate>
   <xmp:CreatorTool>fudaya</xmp:CreatorTool>
   <pdf:Producer>{escape(producer)}</pdf:Producer>
   <pdf:Trapped>False</pdf:Trapped>
   <xmpMM:DocumentID>uuid:{document_id}</xmpMM:DocumentID>
   <xmpMM:InstanceID>uuid:{document_id}</xmpMM:InstanceID>
   <xmpMM:VersionID>1</xmpMM:VersionID>
   <xmpMM:RenditionClass>default</xmpMM:RenditionClass>
   <pdfxid:GTS_PDFXVersion>{standard.version}</pdfxid:GTS_PDFXVersion>{conformance}
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>"""
    return text.encode("utf-8")


def declare(canvas: Canvas, standard_name: str, condition: OutputCondition = FOGRA39) -> None:
    """Make the PDF `canvas` will write identify itself as `standard_name` (a STANDARDS key).

    Call before the first page is finished; the writer still owes each page its TrimBox (this sets the
    whole page as the default trim and bleed for pages whose writer sets none).
    """
    standard = STANDARDS[standard_name]
    document = canvas._doc
    document._pdfVersion = standard.pdf_version  # ReportLab raises it further only for features that need it
    info = _PdfxInfo(document.info, standard)
    info.trapped = "False"
    document.info = info
    profile = _profile_bytes()
    stream = PDFStream(PDFDictionary({"N": 4}), content=profile, filters=[PDFZCompress])
    intent = PDFDictionary({
        "Type": PDFName("OutputIntent"), "S": PDFName("GTS_PDFX"),
        "OutputConditionIdentifier": PDFString(condition.identifier),
        "OutputCondition": PDFString(condition.info), "Info": PDFString(condition.info),
        "RegistryName": PDFString(condition.registry),
        "DestOutputProfile": document.Reference(stream),
    })
    catalog: PDFCatalog = document.Catalog
    catalog.__NoDefault__ = [*PDFCatalog.__NoDefault__, "OutputIntents"]
    catalog.OutputIntents = PDFArray([intent])
    metadata = PDFStream(PDFDictionary({"Type": PDFName("Metadata"), "Subtype": PDFName("XML")}),
                         content=xmp_packet(title=info.title, producer=info.producer, pdf_date=_pdf_date(document),
                                            standard=standard),
                         filters=[])
    catalog.Metadata = metadata
    width, height = canvas._pagesize
    if getattr(canvas, "_trimBox", None) is None:
        canvas.setTrimBox((0, 0, width, height))
    if getattr(canvas, "_bleedBox", None) is None:
        canvas.setBleedBox((0, 0, width, height))


__all__ = ["DEFAULT_STANDARD", "FOGRA39", "PROFILE", "STANDARDS", "declare", "xmp_packet"]
