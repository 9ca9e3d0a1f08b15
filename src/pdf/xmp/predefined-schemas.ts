/**
 * The predefined XMP schemas a PDF/A file may use without an extension schema, and the value type of each of
 * their properties: ISO 19005-1 (6.7.2) takes those of the XMP Specification 2004, ISO 19005-2 and -3
 * (6.6.2.3.1) those of the XMP Specification 2005; both add the PDF/A identification schema. The tables are
 * the specifications' own, cross-read with veraPDF's (XMPConstants, SchemasDefinitionCreator and
 * ValidatorsContainerCreator in veraPDF-library), whose choice of which property exists in which edition they
 * follow. Each edition is assembled below from the pieces both share and the pieces where they differ.
 */

/**
 * A value type as the XMP Specification names it: a simple type ('Text', 'Integer', 'Real', 'Boolean',
 * 'Date', 'URI', 'URL', 'XPath', 'Locale', 'MIMEType', 'ProperName', 'AgentName', 'RenditionClass',
 * 'Rational', 'GPSCoordinate', 'Lang Alt', 'Any'), the name of a structured type in `types` ('Dimensions',
 * 'ResourceRef', ...), or an array of one: 'Bag ProperName', 'Seq ResourceEvent', 'Alt Thumbnail',
 * 'Seq Integer'.
 */
export type ValueType = string;

export interface PropertyType {
  readonly type: ValueType;
  /**
   * A closed Choice or a range: the lexical values allowed, whole-string. For an array type it applies to
   * each item.
   */
  readonly allowed?: RegExp;
}

export interface SchemaDefinition {
  readonly namespace: string;
  /** The prefix the specification uses (informative in XMP, required for a few PDF/A schemas). */
  readonly prefix: string;
  /**
   * Human name, as in a report: 'Dublin Core', 'XMP Dynamic Media', 'EXIF Schema for EXIF-specific
   * Properties'.
   */
  readonly title: string;
  readonly properties: Readonly<Record<string, PropertyType>>;
}

export interface StructuredType {
  /** The namespace of the type's fields. */
  readonly namespace: string;
  readonly fields: Readonly<Record<string, PropertyType>>;
}

export interface XmpDefinitions {
  readonly schemas: readonly SchemaDefinition[];
  readonly types: Readonly<Record<string, StructuredType>>;
}

/** The simple value types (every other item type names a structure in `types`). */
export const SIMPLE_TYPES: readonly ValueType[] = [
  'Text',
  'Integer',
  'Real',
  'Boolean',
  'Date',
  'URI',
  'URL',
  'XPath',
  'Locale',
  'MIMEType',
  'ProperName',
  'AgentName',
  'RenditionClass',
  'Rational',
  'GPSCoordinate',
  'Lang Alt',
  'Any',
];

const NS = {
  pdfaid: 'http://www.aiim.org/pdfa/ns/id/',
  dc: 'http://purl.org/dc/elements/1.1/',
  xmp: 'http://ns.adobe.com/xap/1.0/',
  xmpRights: 'http://ns.adobe.com/xap/1.0/rights/',
  xmpMM: 'http://ns.adobe.com/xap/1.0/mm/',
  xmpBJ: 'http://ns.adobe.com/xap/1.0/bj/',
  xmpTPg: 'http://ns.adobe.com/xap/1.0/t/pg/',
  xmpDM: 'http://ns.adobe.com/xmp/1.0/DynamicMedia/',
  pdf: 'http://ns.adobe.com/pdf/1.3/',
  photoshop: 'http://ns.adobe.com/photoshop/1.0/',
  crs: 'http://ns.adobe.com/camera-raw-settings/1.0/',
  tiff: 'http://ns.adobe.com/tiff/1.0/',
  exif: 'http://ns.adobe.com/exif/1.0/',
  aux: 'http://ns.adobe.com/exif/1.0/aux/',
  stDim: 'http://ns.adobe.com/xap/1.0/sType/Dimensions#',
  xmpGImg: 'http://ns.adobe.com/xap/1.0/g/img/',
  stEvt: 'http://ns.adobe.com/xap/1.0/sType/ResourceEvent#',
  stRef: 'http://ns.adobe.com/xap/1.0/sType/ResourceRef#',
  stVer: 'http://ns.adobe.com/xap/1.0/sType/Version#',
  stJob: 'http://ns.adobe.com/xap/1.0/sType/Job#',
  xmpG: 'http://ns.adobe.com/xap/1.0/g/',
  stFnt: 'http://ns.adobe.com/xap/1.0/sType/Font#',
} as const;

type Properties = Record<string, PropertyType>;

function of(type: ValueType, allowed?: RegExp): PropertyType {
  return allowed ? { type, allowed } : { type };
}

/** Joins the pieces of one schema or structure; a name given twice is a mistake in these tables. */
function merge(name: string, pieces: readonly Properties[]): Readonly<Properties> {
  const all: Properties = {};
  for (const piece of pieces) {
    for (const [key, value] of Object.entries(piece)) {
      if (key in all) throw new Error(`${name}: ${key} is defined twice`);
      all[key] = value;
    }
  }
  return Object.freeze(all);
}

function schema(prefix: keyof typeof NS, title: string, ...pieces: Properties[]): SchemaDefinition {
  return Object.freeze({ namespace: NS[prefix], prefix, title, properties: merge(prefix, pieces) });
}

function structure(name: string, namespace: string, ...pieces: Properties[]): StructuredType {
  return Object.freeze({ namespace, fields: merge(name, pieces) });
}

// Ranges, whole-string, as the lexical forms of Real and Integer allow them (a leading '+', leading zeros).
const ZERO_TO_100 = /^\+?(\d{1,2}(\.\d*)?|\d{0,2}\.\d+|100(\.0*)?)$/;
const ZERO_TO_255 = /^\+?([01]?\d{1,2}|2[0-4]\d|25[0-5])$/;
const MINUS_128_TO_127 = /^([+-]?0?\d{1,2}|[+-]?1[01]\d|[+-]?12[0-7]|-128)$/;
const HIGH_MEDIUM_LOW = /^(High|Medium|Low)$/;
const NORTH_REF = /^[TM]$/;
const DISTANCE_UNIT = /^[KMN]$/;
const AUDIO_VIDEO_SAMPLE = /^(8Int|16Int|32Int|32Float)$/;

// ---- Structured types -------------------------------------------------------------------------------------

const TYPES_COMMON: Readonly<Record<string, StructuredType>> = {
  Dimensions: structure('Dimensions', NS.stDim, {
    w: of('Real'),
    h: of('Real'),
    unit: of('Text'),
  }),
  Thumbnail: structure('Thumbnail', NS.xmpGImg, {
    height: of('Integer'),
    width: of('Integer'),
    format: of('Text', /^JPEG$/),
    image: of('Text'),
  }),
  ResourceEvent: structure('ResourceEvent', NS.stEvt, {
    action: of('Text'),
    instanceID: of('URI'),
    parameters: of('Text'),
    softwareAgent: of('AgentName'),
    when: of('Date'),
  }),
  ResourceRef: structure('ResourceRef', NS.stRef, {
    instanceID: of('URI'),
    documentID: of('URI'),
    versionID: of('Text'),
    renditionClass: of('RenditionClass'),
    renditionParams: of('Text'),
    manager: of('AgentName'),
    managerVariant: of('Text'),
    manageTo: of('URI'),
    manageUI: of('URI'),
  }),
  Version: structure('Version', NS.stVer, {
    comments: of('Text'),
    event: of('ResourceEvent'),
    modifyDate: of('Date'),
    modifier: of('ProperName'),
    version: of('Text'),
  }),
  Job: structure('Job', NS.stJob, {
    name: of('Text'),
    id: of('Text'),
    url: of('URL'),
  }),
  // The specification calls Return and Mode closed choices of Integer; veraPDF checks them as Text.
  Flash: structure('Flash', NS.exif, {
    Fired: of('Boolean'),
    Return: of('Integer', /^[023]$/),
    Mode: of('Integer', /^[0-3]$/),
    Function: of('Boolean'),
    RedEyeMode: of('Boolean'),
  }),
  'OECF/SFR': structure('OECF/SFR', NS.exif, {
    Columns: of('Integer'),
    Rows: of('Integer'),
    Names: of('Seq Text'),
    Values: of('Seq Rational'),
  }),
  CFAPattern: structure('CFAPattern', NS.exif, {
    Columns: of('Integer'),
    Rows: of('Integer'),
    Values: of('Seq Integer'),
  }),
  DeviceSettings: structure('DeviceSettings', NS.exif, {
    Columns: of('Integer'),
    Rows: of('Integer'),
    Settings: of('Seq Text'),
  }),
};

const TYPES_2005_ONLY: Readonly<Record<string, StructuredType>> = {
  Colorant: structure('Colorant', NS.xmpG, {
    swatchName: of('Text'),
    mode: of('Text', /^(CMYK|RGB|LAB)$/),
    type: of('Text', /^(PROCESS|SPOT)$/),
    cyan: of('Real', ZERO_TO_100),
    magenta: of('Real', ZERO_TO_100),
    yellow: of('Real', ZERO_TO_100),
    black: of('Real', ZERO_TO_100),
    red: of('Integer', ZERO_TO_255),
    green: of('Integer', ZERO_TO_255),
    blue: of('Integer', ZERO_TO_255),
    L: of('Real', ZERO_TO_100),
    A: of('Integer', MINUS_128_TO_127),
    B: of('Integer', MINUS_128_TO_127),
  }),
  Font: structure('Font', NS.stFnt, {
    fontName: of('Text'),
    fontFamily: of('Text'),
    fontFace: of('Text'),
    fontType: of('Text'),
    versionString: of('Text'),
    composite: of('Boolean'),
    fontFileName: of('Text'),
    childFontFiles: of('Seq Text'),
  }),
  BeatSpliceStretch: structure('BeatSpliceStretch', NS.xmpDM, {
    useFileBeatsMarker: of('Boolean'),
    riseInDecibel: of('Real'),
    riseInTimeDuration: of('Time'),
  }),
  // The 2005 text says Time; later editions made startTime and duration frame counts, so any value is taken.
  Marker: structure('Marker', NS.xmpDM, {
    startTime: of('Any'),
    duration: of('Any'),
    comment: of('Text'),
    name: of('Text'),
    location: of('URI'),
    target: of('Text'),
    type: of('Text', /^(Chapter|Cue|Beat|Track|Index)$/),
  }),
  Media: structure('Media', NS.xmpDM, {
    path: of('URI'),
    track: of('Text'),
    startTime: of('Time'),
    duration: of('Time'),
    managed: of('Boolean'),
    webStatement: of('URI'),
  }),
  ProjectLink: structure('ProjectLink', NS.xmpDM, {
    type: of('Text', /^(movie|still|audio|custom)$/),
    path: of('URI'),
  }),
  ResampleStretch: structure('ResampleStretch', NS.xmpDM, {
    quality: of('Text', HIGH_MEDIUM_LOW),
  }),
  Time: structure('Time', NS.xmpDM, {
    value: of('Integer'),
    scale: of('Rational'),
  }),
  Timecode: structure('Timecode', NS.xmpDM, {
    timeValue: of('Text', /^\d{2}((:\d{2}){3}|(;\d{2}){3})$/),
    timeFormat: of('Text', /^(24|25|2997Drop|2997NonDrop|30|50|5994Drop|5994NonDrop|60|23976)Timecode$/),
  }),
  TimeScaleStretch: structure('TimeScaleStretch', NS.xmpDM, {
    quality: of('Text', HIGH_MEDIUM_LOW),
    frameSize: of('Real'),
    frameOverlappingPercentage: of('Real'),
  }),
};

// ---- Schemas: what both editions share --------------------------------------------------------------------

const PDFAID_COMMON: Properties = {
  part: of('Integer'),
  amd: of('Text'),
};

const DC: Properties = {
  contributor: of('Bag ProperName'),
  coverage: of('Text'),
  creator: of('Seq ProperName'),
  date: of('Seq Date'),
  description: of('Lang Alt'),
  format: of('MIMEType'),
  identifier: of('Text'),
  language: of('Bag Locale'),
  publisher: of('Bag ProperName'),
  relation: of('Bag Text'),
  rights: of('Lang Alt'),
  source: of('Text'),
  subject: of('Bag Text'),
  title: of('Lang Alt'),
  type: of('Bag Text'),
};

const XMP_COMMON: Properties = {
  Advisory: of('Bag Text'),
  BaseURL: of('URL'),
  CreateDate: of('Date'),
  CreatorTool: of('AgentName'),
  Identifier: of('Bag Text'),
  MetadataDate: of('Date'),
  ModifyDate: of('Date'),
  Nickname: of('Text'),
  Thumbnails: of('Alt Thumbnail'),
};

const XMP_RIGHTS: Properties = {
  Certificate: of('URL'),
  Marked: of('Boolean'),
  Owner: of('Bag ProperName'),
  UsageTerms: of('Lang Alt'),
  WebStatement: of('URL'),
};

const XMP_MM: Properties = {
  DerivedFrom: of('ResourceRef'),
  DocumentID: of('URI'),
  History: of('Seq ResourceEvent'),
  InstanceID: of('URI'),
  ManagedFrom: of('ResourceRef'),
  Manager: of('AgentName'),
  ManageTo: of('URI'),
  ManageUI: of('URI'),
  ManagerVariant: of('Text'),
  RenditionClass: of('RenditionClass'),
  RenditionParams: of('Text'),
  VersionID: of('Text'),
  Versions: of('Seq Version'),
  LastURL: of('URL'),
  RenditionOf: of('ResourceRef'),
  SaveID: of('Integer'),
};

const XMP_BJ: Properties = {
  JobRef: of('Bag Job'),
};

const XMP_TPG_COMMON: Properties = {
  MaxPageSize: of('Dimensions'),
  NPages: of('Integer'),
};

const PDF: Properties = {
  Keywords: of('Text'),
  PDFVersion: of('Text'),
  Producer: of('AgentName'),
};

const PHOTOSHOP_COMMON: Properties = {
  AuthorsPosition: of('Text'),
  CaptionWriter: of('ProperName'),
  Category: of('Text'),
  City: of('Text'),
  Country: of('Text'),
  Credit: of('Text'),
  DateCreated: of('Date'),
  Headline: of('Text'),
  Instructions: of('Text'),
  Source: of('Text'),
  State: of('Text'),
  TransmissionReference: of('Text'),
  Urgency: of('Integer'),
};

const TIFF: Properties = {
  ImageWidth: of('Integer'),
  ImageLength: of('Integer'),
  BitsPerSample: of('Seq Integer'),
  Compression: of('Integer', /^[16]$/),
  PhotometricInterpretation: of('Integer', /^[26]$/),
  Orientation: of('Integer', /^[1-8]$/),
  SamplesPerPixel: of('Integer'),
  PlanarConfiguration: of('Integer', /^[12]$/),
  // A closed choice of whole sequences: see SEQUENCE_CHOICES.
  YCbCrSubSampling: of('Seq Integer'),
  YCbCrPositioning: of('Integer', /^[12]$/),
  XResolution: of('Rational'),
  YResolution: of('Rational'),
  ResolutionUnit: of('Integer', /^[23]$/),
  TransferFunction: of('Seq Integer'),
  WhitePoint: of('Seq Rational'),
  PrimaryChromaticities: of('Seq Rational'),
  YCbCrCoefficients: of('Seq Rational'),
  ReferenceBlackWhite: of('Seq Rational'),
  DateTime: of('Date'),
  ImageDescription: of('Lang Alt'),
  Make: of('ProperName'),
  Model: of('ProperName'),
  Software: of('AgentName'),
  Artist: of('ProperName'),
  Copyright: of('Lang Alt'),
};

const EXIF_COMMON: Properties = {
  // A closed choice of whole sequences: see SEQUENCE_CHOICES.
  ComponentsConfiguration: of('Seq Integer'),
  CompressedBitsPerPixel: of('Rational'),
  PixelXDimension: of('Integer'),
  PixelYDimension: of('Integer'),
  UserComment: of('Lang Alt'),
  RelatedSoundFile: of('Text'),
  DateTimeOriginal: of('Date'),
  DateTimeDigitized: of('Date'),
  ExposureTime: of('Rational'),
  FNumber: of('Rational'),
  ExposureProgram: of('Integer', /^[0-8]$/),
  SpectralSensitivity: of('Text'),
  ISOSpeedRatings: of('Seq Integer'),
  OECF: of('OECF/SFR'),
  ShutterSpeedValue: of('Rational'),
  ApertureValue: of('Rational'),
  BrightnessValue: of('Rational'),
  ExposureBiasValue: of('Rational'),
  MaxApertureValue: of('Rational'),
  SubjectDistance: of('Rational'),
  MeteringMode: of('Integer', /^([0-6]|255)$/),
  Flash: of('Flash'),
  FocalLength: of('Rational'),
  SubjectArea: of('Seq Integer'),
  FlashEnergy: of('Rational'),
  SpatialFrequencyResponse: of('OECF/SFR'),
  FocalPlaneXResolution: of('Rational'),
  FocalPlaneYResolution: of('Rational'),
  FocalPlaneResolutionUnit: of('Integer', /^[23]$/),
  SubjectLocation: of('Seq Integer'),
  ExposureIndex: of('Rational'),
  SensingMethod: of('Integer', /^[1-8]$/),
  FileSource: of('Integer', /^3$/),
  SceneType: of('Integer', /^1$/),
  CFAPattern: of('CFAPattern'),
  CustomRendered: of('Integer', /^[01]$/),
  ExposureMode: of('Integer', /^[0-2]$/),
  WhiteBalance: of('Integer', /^[01]$/),
  DigitalZoomRatio: of('Rational'),
  FocalLengthIn35mmFilm: of('Integer'),
  SceneCaptureType: of('Integer', /^[0-3]$/),
  GainControl: of('Integer', /^[0-4]$/),
  Contrast: of('Integer', /^[0-2]$/),
  Saturation: of('Integer', /^[0-2]$/),
  Sharpness: of('Integer', /^[0-2]$/),
  DeviceSettingDescription: of('DeviceSettings'),
  SubjectDistanceRange: of('Integer', /^[0-3]$/),
  ImageUniqueID: of('Text'),
  GPSVersionID: of('Text'),
  GPSLatitude: of('GPSCoordinate'),
  GPSLongitude: of('GPSCoordinate'),
  GPSAltitudeRef: of('Integer', /^[01]$/),
  GPSAltitude: of('Rational'),
  GPSTimeStamp: of('Date'),
  GPSSatellites: of('Text'),
  GPSStatus: of('Text', /^[AV]$/),
  GPSDOP: of('Rational'),
  GPSSpeedRef: of('Text', DISTANCE_UNIT),
  GPSSpeed: of('Rational'),
  GPSTrackRef: of('Text', NORTH_REF),
  GPSTrack: of('Rational'),
  GPSImgDirectionRef: of('Text', NORTH_REF),
  GPSImgDirection: of('Rational'),
  GPSMapDatum: of('Text'),
  GPSDestLatitude: of('GPSCoordinate'),
  GPSDestLongitude: of('GPSCoordinate'),
  GPSDestBearingRef: of('Text', NORTH_REF),
  GPSDestBearing: of('Rational'),
  GPSDestDistanceRef: of('Text', DISTANCE_UNIT),
  GPSDestDistance: of('Rational'),
  GPSProcessingMethod: of('Text'),
  GPSAreaInformation: of('Text'),
  GPSDifferential: of('Integer', /^[01]$/),
};

// ---- Schemas: XMP Specification 2004 only -----------------------------------------------------------------

const PDFAID_2004: Properties = {
  conformance: of('Text', /^[AB]$/),
};

const PHOTOSHOP_2004: Properties = {
  SupplementalCategories: of('Text'),
};

const EXIF_2004: Properties = {
  ExifVersion: of('Text', /^0210$/),
  FlashpixVersion: of('Text', /^0100$/),
  // "Uncalibrated" is EXIF's 0xFFFF as a signed 16-bit number, -32768; veraPDF's table has -32786. Both pass.
  ColorSpace: of('Integer', /^(1|-32768|-32786)$/),
  LightSource: of('Integer', /^([0-3]|1[7-9]|2[0-2]|255)$/),
  GPSMeasureMode: of('Integer', /^[23]$/),
  MakerNote: of('Text'),
};

// ---- Schemas: XMP Specification 2005 only -----------------------------------------------------------------

const PDFAID_2005: Properties = {
  corr: of('Text'),
  conformance: of('Text', /^[ABU]$/),
};

const XMP_2005_ONLY: Properties = {
  Label: of('Text'),
  // The specification's "closed Choice of Integer" has application-defined values; veraPDF accepts any Real.
  Rating: of('Real'),
};

const XMP_TPG_2005: Properties = {
  Fonts: of('Bag Font'),
  Colorants: of('Seq Colorant'),
  PlateNames: of('Seq Text'),
};

const PHOTOSHOP_2005: Properties = {
  SupplementalCategories: of('Bag Text'),
};

const EXIF_2005: Properties = {
  ExifVersion: of('Text'),
  FlashpixVersion: of('Text'),
  ColorSpace: of('Integer', /^(1|65535)$/),
  LightSource: of('Integer', /^([0-4]|9|1[0-5]|1[7-9]|2[0-4]|255)$/),
  GPSMeasureMode: of('Text'),
};

const XMP_DM: Properties = {
  projectRef: of('ProjectLink'),
  videoFrameRate: of('Text'),
  videoFrameSize: of('Dimensions'),
  videoPixelAspectRatio: of('Rational'),
  videoPixelDepth: of('Text', AUDIO_VIDEO_SAMPLE),
  videoColorSpace: of('Text', /^(sRGB|CCIR-601|CCIR-709)$/),
  videoAlphaMode: of('Text', /^(straight|pre-multiplied)$/),
  videoAlphaPremultipleColor: of('Colorant'),
  videoAlphaUnityIsTransparent: of('Boolean'),
  videoCompressor: of('Text'),
  videoFieldOrder: of('Text', /^(Upper|Lower|Progressive)$/),
  // veraPDF's pattern has 'WSSW', a letter short: the specification (and veraPDF's own comment) has WSSWW.
  pullDown: of('Text', /^(WSSWW|SSWWW|SWWWS|WWWSS|WWSSW)(_24p)?$/),
  audioSampleRate: of('Integer'),
  audioSampleType: of('Text', AUDIO_VIDEO_SAMPLE),
  audioChannelType: of('Text', /^(Mono|Stereo|5\.1|7\.1)$/),
  audioCompressor: of('Text'),
  speakerPlacement: of('Text'),
  fileDataRate: of('Rational'),
  tapeName: of('Text'),
  altTapeName: of('Text'),
  startTimecode: of('Timecode'),
  altTimecode: of('Timecode'),
  duration: of('Time'),
  scene: of('Text'),
  shotName: of('Text'),
  shotDate: of('Date'),
  shotLocation: of('Text'),
  logComment: of('Text'),
  markers: of('Seq Marker'),
  contributedMedia: of('Bag Media'),
  absPeakAudioFilePath: of('URI'),
  relativePeakAudioFilePath: of('URI'),
  videoModDate: of('Date'),
  audioModDate: of('Date'),
  metadataModDate: of('Date'),
  artist: of('Text'),
  album: of('Text'),
  trackNumber: of('Integer'),
  genre: of('Text'),
  copyright: of('Text'),
  releaseDate: of('Date'),
  composer: of('Text'),
  engineer: of('Text'),
  tempo: of('Real'),
  instrument: of('Text'),
  introTime: of('Time'),
  outCue: of('Time'),
  relativeTimestamp: of('Time'),
  loop: of('Boolean'),
  numberOfBeats: of('Real'),
  key: of('Text', /^([ACDFG]#?|[BE])$/),
  stretchMode: of('Text', /^(Fixed length|Time-Scale|Resample|Beat Splice|Hybrid)$/),
  timeScaleParams: of('TimeScaleStretch'),
  resampleParams: of('ResampleStretch'),
  beatSpliceParams: of('BeatSpliceStretch'),
  timeSignature: of('Text', /^([2-57]\/4|[69]\/8|12\/8|other)$/),
  scaleType: of('Text', /^(Major|Minor|Both|Neither)$/),
};

const CRS: Properties = {
  AutoBrightness: of('Boolean'),
  AutoContrast: of('Boolean'),
  AutoExposure: of('Boolean'),
  AutoShadows: of('Boolean'),
  BlueHue: of('Integer'),
  BlueSaturation: of('Integer'),
  Brightness: of('Integer'),
  CameraProfile: of('Text'),
  ChromaticAberrationB: of('Integer'),
  ChromaticAberrationR: of('Integer'),
  ColorNoiseReduction: of('Integer'),
  Contrast: of('Integer'),
  CropTop: of('Real'),
  CropLeft: of('Real'),
  CropBottom: of('Real'),
  CropRight: of('Real'),
  CropAngle: of('Real'),
  CropWidth: of('Real'),
  CropHeight: of('Real'),
  CropUnits: of('Integer'),
  Exposure: of('Real'),
  GreenHue: of('Integer'),
  GreenSaturation: of('Integer'),
  HasCrop: of('Boolean'),
  HasSettings: of('Boolean'),
  LuminanceSmoothing: of('Integer'),
  RawFileName: of('Text'),
  RedHue: of('Integer'),
  RedSaturation: of('Integer'),
  Saturation: of('Integer'),
  Shadows: of('Integer'),
  ShadowTint: of('Integer'),
  Sharpness: of('Integer'),
  Temperature: of('Integer'),
  Tint: of('Integer'),
  // Each point "(x, y)" as veraPDF reads the specification; Camera Raw itself writes "x, y", accepted too.
  ToneCurve: of('Seq Text', /^(\([+-]?\d+, [+-]?\d+\)|[+-]?\d+, [+-]?\d+)$/),
  ToneCurveName: of('Text'),
  Version: of('Text'),
  VignetteAmount: of('Integer'),
  VignetteMidpoint: of('Integer'),
  WhiteBalance: of('Text', /^(As Shot|Auto|Daylight|Cloudy|Shade|Tungsten|Fluorescent|Flash|Custom)$/),
};

const AUX: Properties = {
  Lens: of('Text'),
  SerialNumber: of('Text'),
};

// ---- The editions -----------------------------------------------------------------------------------------

const TITLE = {
  pdfaid: 'PDF/A Identification',
  dc: 'Dublin Core',
  xmp: 'XMP Basic',
  xmpRights: 'XMP Rights Management',
  xmpMM: 'XMP Media Management',
  xmpBJ: 'XMP Basic Job Ticket',
  xmpTPg: 'XMP Paged-Text',
  xmpDM: 'XMP Dynamic Media',
  pdf: 'Adobe PDF',
  photoshop: 'Photoshop',
  crs: 'Camera Raw',
  tiff: 'EXIF Schema for TIFF Properties',
  exif: 'EXIF Schema for EXIF-specific Properties',
  aux: 'EXIF Schema for Additional EXIF Properties',
} as const;

/** What ISO 19005-1 takes as predefined: the XMP Specification 2004 and the PDF/A identification schema. */
export const XMP_2004: XmpDefinitions = Object.freeze({
  schemas: Object.freeze([
    schema('pdfaid', TITLE.pdfaid, PDFAID_COMMON, PDFAID_2004),
    schema('dc', TITLE.dc, DC),
    schema('xmp', TITLE.xmp, XMP_COMMON),
    schema('xmpRights', TITLE.xmpRights, XMP_RIGHTS),
    schema('xmpMM', TITLE.xmpMM, XMP_MM),
    schema('xmpBJ', TITLE.xmpBJ, XMP_BJ),
    schema('xmpTPg', TITLE.xmpTPg, XMP_TPG_COMMON),
    schema('pdf', TITLE.pdf, PDF),
    schema('photoshop', TITLE.photoshop, PHOTOSHOP_COMMON, PHOTOSHOP_2004),
    schema('tiff', TITLE.tiff, TIFF),
    schema('exif', TITLE.exif, EXIF_COMMON, EXIF_2004),
  ]),
  types: Object.freeze({ ...TYPES_COMMON }),
});

/**
 * What ISO 19005-2 and -3 take as predefined: the XMP Specification 2005 and the PDF/A identification
 * schema.
 */
export const XMP_2005: XmpDefinitions = Object.freeze({
  schemas: Object.freeze([
    schema('pdfaid', TITLE.pdfaid, PDFAID_COMMON, PDFAID_2005),
    schema('dc', TITLE.dc, DC),
    schema('xmp', TITLE.xmp, XMP_COMMON, XMP_2005_ONLY),
    schema('xmpRights', TITLE.xmpRights, XMP_RIGHTS),
    schema('xmpMM', TITLE.xmpMM, XMP_MM),
    schema('xmpBJ', TITLE.xmpBJ, XMP_BJ),
    schema('xmpTPg', TITLE.xmpTPg, XMP_TPG_COMMON, XMP_TPG_2005),
    schema('xmpDM', TITLE.xmpDM, XMP_DM),
    schema('pdf', TITLE.pdf, PDF),
    schema('photoshop', TITLE.photoshop, PHOTOSHOP_COMMON, PHOTOSHOP_2005),
    schema('crs', TITLE.crs, CRS),
    schema('tiff', TITLE.tiff, TIFF),
    schema('exif', TITLE.exif, EXIF_COMMON, EXIF_2005),
    schema('aux', TITLE.aux, AUX),
  ]),
  types: Object.freeze({ ...TYPES_COMMON, ...TYPES_2005_ONLY }),
});

/**
 * Properties whose closed choice is of whole sequences, which no per-item pattern can say: the allowed
 * sequences, item by item, keyed by namespace and property name. The same in both editions.
 */
export const SEQUENCE_CHOICES: Readonly<Record<string, readonly (readonly string[])[]>> = Object.freeze({
  [`${NS.tiff}YCbCrSubSampling`]: [
    ['2', '1'],
    ['2', '2'],
  ],
  [`${NS.exif}ComponentsConfiguration`]: [
    ['4', '5', '6', '0'],
    ['1', '2', '3', '0'],
  ],
});
