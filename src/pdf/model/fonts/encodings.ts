/**
 * The simple fonts' named encodings (ISO 32000-1, Annex D): each code's glyph name, '' where the encoding
 * names none. MacRoman here is the full Mac OS Roman character set, as a TrueType (1,0) `cmap` codes it
 * (ISO 32000-1, 9.6.6.4).
 */

/** The glyph names of codes 32 to 126 in the Latin encodings. */
export const ASCII_NAMES: readonly string[] =
  `space exclam quotedbl numbersign dollar percent ampersand quotesingle parenleft parenright asterisk plus
comma hyphen period slash zero one two three four five six seven eight nine colon semicolon less equal greater
question at A B C D E F G H I J K L M N O P Q R S T U V W X Y Z bracketleft backslash bracketright asciicircum
underscore grave a b c d e f g h i j k l m n o p q r s t u v w x y z braceleft bar braceright asciitilde`.split(
    /\s+/,
  );

const table = (high: string, overrides: Record<number, string> = {}): readonly string[] => {
  const names = new Array<string>(256).fill('');
  ASCII_NAMES.forEach((name, i) => (names[32 + i] = name));
  high
    .trim()
    .split(/\s+/)
    .forEach((name, i) => (names[128 + i] = name === '-' ? '' : name));
  for (const [code, name] of Object.entries(overrides)) names[Number(code)] = name;
  return names;
};

export const WIN_ANSI = table(`Euro - quotesinglbase florin quotedblbase ellipsis dagger daggerdbl circumflex
perthousand Scaron guilsinglleft OE - Zcaron - - quoteleft quoteright quotedblleft quotedblright bullet endash
emdash tilde trademark scaron guilsinglright oe - zcaron Ydieresis space exclamdown cent sterling currency yen
brokenbar section dieresis copyright ordfeminine guillemotleft logicalnot hyphen registered macron degree
plusminus twosuperior threesuperior acute mu paragraph periodcentered cedilla onesuperior ordmasculine
guillemotright onequarter onehalf threequarters questiondown Agrave Aacute Acircumflex Atilde Adieresis Aring AE
Ccedilla Egrave Eacute Ecircumflex Edieresis Igrave Iacute Icircumflex Idieresis Eth Ntilde Ograve Oacute
Ocircumflex Otilde Odieresis multiply Oslash Ugrave Uacute Ucircumflex Udieresis Yacute Thorn germandbls agrave
aacute acircumflex atilde adieresis aring ae ccedilla egrave eacute ecircumflex edieresis igrave iacute
icircumflex idieresis eth ntilde ograve oacute ocircumflex otilde odieresis divide oslash ugrave uacute
ucircumflex udieresis yacute thorn ydieresis`);

export const MAC_ROMAN =
  table(`Adieresis Aring Ccedilla Eacute Ntilde Odieresis Udieresis aacute agrave acircumflex
adieresis atilde aring ccedilla eacute egrave ecircumflex edieresis iacute igrave icircumflex idieresis ntilde
oacute ograve ocircumflex odieresis otilde uacute ugrave ucircumflex udieresis dagger degree cent sterling section
bullet paragraph germandbls registered copyright trademark acute dieresis notequal AE Oslash infinity plusminus
lessequal greaterequal yen mu partialdiff summation product pi integral ordfeminine ordmasculine Omega ae oslash
questiondown exclamdown logicalnot radical florin approxequal Delta guillemotleft guillemotright ellipsis space
Agrave Atilde Otilde OE oe endash emdash quotedblleft quotedblright quoteleft quoteright divide lozenge ydieresis
Ydieresis fraction currency guilsinglleft guilsinglright fi fl daggerdbl periodcentered quotesinglbase
quotedblbase perthousand Acircumflex Ecircumflex Aacute Edieresis Egrave Iacute Icircumflex Idieresis Igrave
Oacute Ocircumflex apple Ograve Uacute Ucircumflex Ugrave dotlessi circumflex tilde macron breve dotaccent ring
cedilla hungarumlaut ogonek caron`);

export const STANDARD = table(
  `- - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - - exclamdown cent sterling fraction yen florin
section currency quotesingle quotedblleft guillemotleft guilsinglleft guilsinglright fi fl - endash dagger
daggerdbl periodcentered - paragraph bullet quotesinglbase quotedblbase quotedblright guillemotright ellipsis
perthousand - questiondown - grave acute circumflex tilde macron breve dotaccent dieresis - ring cedilla -
hungarumlaut ogonek caron emdash - - - - - - - - - - - - - - - - AE - ordfeminine - - - - Lslash Oslash OE
ordmasculine - - - - - ae - - - dotlessi - - lslash oslash oe germandbls - - - -`,
  { 39: 'quoteright', 96: 'quoteleft' },
);

/** The encoding a name stands for; undefined for one this reader does not hold (MacExpertEncoding). */
export function namedEncoding(name: string | undefined): readonly string[] | undefined {
  if (name === 'WinAnsiEncoding') return WIN_ANSI;
  if (name === 'MacRomanEncoding') return MAC_ROMAN;
  if (name === 'StandardEncoding') return STANDARD;
  return undefined;
}

let codeOfMacName: Map<string, number> | undefined;

/** The Mac OS Roman code of a glyph name, for a (1,0) `cmap` lookup. */
export function macRomanCode(name: string): number | undefined {
  codeOfMacName ??= new Map(
    MAC_ROMAN.map((n, code) => [n, code] as [string, number])
      .filter(([n]) => n !== '')
      .reverse(),
  );
  return codeOfMacName.get(name);
}
