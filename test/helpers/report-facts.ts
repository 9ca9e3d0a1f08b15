/**
 * The facts a report is built from, as the parser gives them, for the report's unit tests: a plain
 * one-page document, and a font and an image of the shapes PDFium reports.
 */
import type { DocumentFacts, PageFacts } from '../../src/pdf/facts.js';

export const plainDocument: DocumentFacts = {
  pdf_version: '1.7',
  page_count: 1,
  encrypted: false,
  title: 'T',
  author: null,
  producer: null,
  form: 'none',
  javascript: false,
  outline: false,
  tagged: false,
  language: null,
  display_doc_title: false,
  xmp_title: null,
  linearized: false,
  xmp_metadata: false,
  pdfa: null,
  pdfua: null,
  pdfx: null,
  output_intents: [],
  embedded_files: 0,
  struct_figures: 0,
  struct_figures_without_alt: 0,
  struct_content: 0,
  struct_content_without_language: 0,
  struct_languages: [],
  struct_types_nonstandard: [],
  struct_heading_skips: [],
  struct_table_headers_without_scope: 0,
  trailer_id: true,
  suspects: false,
  actions: [],
  additional_actions: [],
  form_fields: 0,
  form_fields_without_description: 0,
};
export const font = (name: string, embedded: boolean) => ({
  name,
  type: 'Type1',
  embedded,
  subset: false,
  to_unicode: false,
  encoding: 'WinAnsiEncoding',
  unicode_mapping: 'standard_encoding' as const,
  used_for_rendering: true,
});
export const image = (width_px: number, height_px: number, dpi: number) => ({
  width_px,
  height_px,
  dpi,
  color_space: 'rgb' as const,
  icc_components: null,
  bits_per_component: 8,
  encoding: 'dct' as const,
});

/** A page of one embedded font's text and nothing else, of the size and boxes given; `overrides` change it. */
export const plainPage = (
  size: Pick<PageFacts, 'width_pt' | 'height_pt' | 'boxes'>,
  overrides: Partial<PageFacts> = {},
): PageFacts => ({
  ...size,
  rotation: 0,
  transparency: false,
  spot_colors: [],
  fonts: [font('F', true)],
  has_text: true,
  images: [],
  annotations: 0,
  links: 0,
  annotation_details: [],
  tab_order: null,
  blend_modes: [],
  transfer_functions: false,
  rendering_intents: [],
  interpolated_images: 0,
  device_colors: [],
  untagged_content: 0,
  ...overrides,
});
