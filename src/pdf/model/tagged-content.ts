import type { CosFile } from '../cos/file.js';
import { isDict, isStream, nameOf, type PdfDict, type PdfValue, textString } from '../cos/syntax.js';
import type { Builders, Emitter, ModelNode, PageSource } from './node.js';
import type { LanguageKinds } from './language.js';
import {
  catalogLanguage,
  elementLanguage,
  type LanguageInForce,
  type LanguageSource,
} from './language/in-force.js';
import { type Operation, pageOperations } from './operations.js';
import { type StructElement, type StructTree, structureTree } from './structure/tree.js';
import { MarkedContentHolders, pageObjectNumber, structParentHolder } from './tagged-content/holders.js';

/** A marked-content sequence of a page's content (BMC or BDC to EMC), in the page's streams or a form's. */
export interface MarkedContentNode extends ModelNode {
  pageNumber: number;
  /** The tag: `Artifact`, `Span`, `P`, ... ('' when the operand is not a name). */
  tag: string;
  /** Its property list's /MCID; undefined when it has none. */
  mcid: number | undefined;
  /**
   * It is tagged content: its MCID, or an enclosing sequence's, is held by an element of the tree (a form
   * the tree holds itself does not make the sequences in it so, as veraPDF's tests read it).
   */
  tagged: boolean;
  /** A sequence around it is tagged Artifact (ISO 32000-1 14.8.2.2), or the form it is in is drawn in one. */
  withinArtifact: boolean;
  /** Its property list's /Lang, /ActualText, /Alt and /E, when they are text strings. */
  lang: string | undefined;
  actualText: string | undefined;
  alt: string | undefined;
  expansion: string | undefined;
  /**
   * The language in force in it: its own /Lang, that of the element holding it (or an ancestor's), that of a
   * sequence around it, or the catalog's; undefined when none is.
   */
  language: string | undefined;
  languageFrom: LanguageSource | undefined;
}

/** One page's content as tagged, marked as artifacts, or neither, counted over its content items. */
export interface PageContentNode extends ModelNode {
  pageNumber: number;
  /**
   * Content items (text shown, paths painted, images, inline images, shadings: what paints the page,
   * in its streams and the forms it draws) in no tagged content and no Artifact sequence.
   */
  untaggedItems: number;
  /** The first of them, each "where: what". */
  untaggedExamples: string[];
  /** Text-showing operators with no language in force (see `MarkedContentNode.language`). */
  textWithoutLanguage: number;
  textWithoutLanguageExamples: string[];
}

/** A page's content as tagged or marked as artifacts (ISO 32000-1 14.6, 14.7.4, 14.8.2.2). */
export interface TaggedContentKinds {
  marked_content: MarkedContentNode;
  page_content: PageContentNode;
}

/** What the tagged content's reading emits: its kinds, and the /Lang entries of marked content (a language kind). */
type TaggedContentEmits = TaggedContentKinds & Pick<LanguageKinds, 'lang_entry'>;

const MAX_EXAMPLES = 3;
/** Marked-content nesting kept at most; deeper sequences are read as their parent. */
const MAX_NESTING = 256;

const TEXT_SHOWING = new Set(['Tj', 'TJ', "'", '"']);
const PATH_PAINTING = new Set(['S', 's', 'f', 'F', 'f*', 'B', 'B*', 'b', 'b*']);

/** What is in force at a point of the content: the state of the innermost sequence or stream. */
interface Frame {
  /** A stream's frame (the page's, or a form's where it is drawn); else a sequence's. */
  stream: StreamFrame;
  isStream: boolean;
  /** Held by the structure tree: by an enclosing sequence's MCID, or by the form itself. */
  tagged: boolean;
  /**
   * Inside a sequence whose MCID an element holds: what veraPDF's tests call tagged content (a form held by
   * an element itself does not make its sequences so).
   */
  inTaggedSequence: boolean;
  artifact: boolean;
  language: LanguageInForce;
}

interface StreamFrame extends Frame {
  form: number | undefined;
  /** The stream's own dictionary: the page's, or the form's (for its /StructParents). */
  owner: PdfDict | undefined;
  holders: MarkedContentHolders | undefined;
}

const textOf = (dict: PdfDict | undefined, key: string): string | undefined => textString(dict?.get(key));

class PageTagging {
  private readonly cos: CosFile;
  private readonly tree: StructTree;
  private readonly pageObject: number | undefined;
  private readonly stack: Frame[] = [];
  private readonly node: PageContentNode;
  private readonly langsSeen = new Set<string>();
  private readonly wantsSequences: boolean;
  private readonly wantsLangs: boolean;
  /** Sequences opened past MAX_NESTING, whose EMC closes nothing kept. */
  private unkept = 0;

  constructor(
    private readonly source: PageSource,
    private readonly out: Emitter<TaggedContentEmits>,
  ) {
    this.cos = source.cos;
    this.tree = structureTree(source.cos);
    this.pageObject = pageObjectNumber(source.cos, source.page);
    this.wantsSequences = out.wants('marked_content');
    this.wantsLangs = out.wants('lang_entry');
    this.node = {
      where: `page ${source.pageNumber}`,
      pageNumber: source.pageNumber,
      untaggedItems: 0,
      untaggedExamples: [],
      textWithoutLanguage: 0,
      textWithoutLanguageExamples: [],
    };
    const base = {
      form: undefined,
      owner: source.page,
      holders: undefined,
      isStream: true,
      tagged: false,
      inTaggedSequence: false,
      artifact: false,
      language: catalogLanguage(source.cos),
    } as Omit<StreamFrame, 'stream'> as StreamFrame;
    base.stream = base;
    this.stack.push(base);
  }

  read(): PageContentNode {
    let stream = this.stack[0]!.stream;
    let previous: number | undefined;
    for (const op of pageOperations(this.source)) {
      if (op.form !== stream.form) stream = this.enterStream(op.form, previous);
      previous = op.form;
      const frame = this.stack[this.stack.length - 1]!;
      const name = op.op;
      if (name === 'BDC' || name === 'BMC') this.open(op, frame);
      else if (name === 'EMC') {
        if (this.unkept > 0) this.unkept--;
        else if (!frame.isStream) this.stack.pop();
      } else if (TEXT_SHOWING.has(name)) {
        this.item(op, frame, 'text');
        if (frame.language.language === undefined) {
          this.node.textWithoutLanguage++;
          if (this.node.textWithoutLanguageExamples.length < MAX_EXAMPLES)
            this.node.textWithoutLanguageExamples.push(`${op.where}: text (${name})`);
        }
      } else if (PATH_PAINTING.has(name)) this.item(op, frame, `a path painted (${name})`);
      else if (name === 'sh') this.item(op, frame, 'a shading (sh)');
      else if (name === 'BI') this.item(op, frame, 'an inline image');
      else if (name === 'Do' && !frame.tagged && !frame.artifact && this.drawsImage(op))
        this.item(op, frame, `image XObject /${nameOf(op.operands[0]) ?? '?'}`);
    }
    return this.node;
  }

  /** A content item: counted when it is in neither tagged content nor an artifact. */
  private item(op: Operation, frame: Frame, what: string): void {
    if (frame.tagged || frame.artifact) return;
    this.node.untaggedItems++;
    if (this.node.untaggedExamples.length < MAX_EXAMPLES)
      this.node.untaggedExamples.push(`${op.where}: ${what}`);
  }

  private drawsImage(op: Operation): boolean {
    const name = nameOf(op.operands[0]);
    if (name === undefined) return false;
    const xobject = this.cos.resolve(this.cos.dict(op.resources, 'XObject')?.get(name));
    return isStream(xobject) && nameOf(this.cos.get(xobject.stream.dict, 'Subtype')) === 'Image';
  }

  /**
   * The frame of the stream `form` is in: back to a stream drawn further out (a form's content has ended;
   * sequences it left open end with it), or into a form that `drawer`'s `Do` (the operator just before)
   * draws, which inherits what is in force where it is drawn and may be held by an element itself
   * (/StructParent, or an object reference to it).
   */
  private enterStream(form: number | undefined, drawer: number | undefined): StreamFrame {
    const known = this.stack.some((frame) => frame.stream.form === form);
    const until = known ? form : drawer;
    while (this.stack.length > 1 && this.stack[this.stack.length - 1]!.stream.form !== until)
      this.stack.pop();
    if (known) return this.stack[this.stack.length - 1]!.stream;
    const around = this.stack[this.stack.length - 1]!;
    const value = form === undefined ? undefined : this.cos.object(form);
    const owner = isStream(value) ? value.stream.dict : undefined;
    const holder =
      (form === undefined ? undefined : this.tree.holderOfObject(form)) ??
      structParentHolder(this.cos, this.tree, owner?.get('StructParent'));
    const own = holder === undefined || holder === true ? undefined : elementLanguage(holder);
    const frame = {
      form,
      owner,
      holders: undefined,
      isStream: true,
      tagged: around.tagged || holder !== undefined,
      inTaggedSequence: around.inTaggedSequence,
      artifact: around.artifact,
      language: own?.language !== undefined ? own : around.language,
    } as Omit<StreamFrame, 'stream'> as StreamFrame;
    frame.stream = frame;
    this.stack.push(frame);
    return frame;
  }

  private holderOf(stream: StreamFrame, mcid: number): StructElement | true | undefined {
    stream.holders ??= new MarkedContentHolders(this.cos, this.tree, this.pageObject, stream.owner);
    return stream.holders.holder(mcid);
  }

  private open(op: Operation, around: Frame): void {
    const tag = nameOf(op.operands[0]) ?? '';
    const properties = op.op === 'BDC' ? this.propertyList(op, op.operands[1]) : undefined;
    const mcidValue = properties?.get('MCID');
    const mcid = typeof mcidValue === 'number' && Number.isInteger(mcidValue) ? mcidValue : undefined;
    const holder = mcid === undefined ? undefined : this.holderOf(around.stream, mcid);
    const lang = textOf(properties, 'Lang');
    let language: LanguageInForce = around.language;
    if (lang !== undefined) language = { language: lang, from: 'marked content' };
    else if (holder !== undefined && holder !== true) {
      const ofHolder = elementLanguage(holder);
      if (ofHolder.language !== undefined) language = ofHolder;
    }
    const frame: Frame = {
      stream: around.stream,
      isStream: false,
      tagged: around.tagged || holder !== undefined,
      inTaggedSequence: around.inTaggedSequence || holder !== undefined,
      artifact: around.artifact || tag === 'Artifact',
      language,
    };
    if (this.stack.length < MAX_NESTING) this.stack.push(frame);
    else this.unkept++;
    if (!this.wantsSequences && !(this.wantsLangs && lang !== undefined)) return;
    const where = `${op.where}, marked content /${tag}${mcid !== undefined ? ` (MCID ${mcid})` : ''}`;
    if (this.wantsLangs && lang !== undefined && !this.langsSeen.has(lang)) {
      this.langsSeen.add(lang);
      this.out.emit('lang_entry', {
        where,
        value: lang,
        readable: !this.cos.ciphertext,
        of: 'marked content',
      });
    }
    if (this.wantsSequences)
      this.out.emit('marked_content', {
        where,
        pageNumber: this.source.pageNumber,
        tag,
        mcid,
        tagged: frame.inTaggedSequence,
        withinArtifact: around.artifact,
        lang,
        actualText: textOf(properties, 'ActualText'),
        alt: textOf(properties, 'Alt'),
        expansion: textOf(properties, 'E'),
        language: language.language,
        languageFrom: language.from,
      });
  }

  /** A BDC's property list: written in place, or named in the resources' /Properties. */
  private propertyList(op: Operation, operand: PdfValue | undefined): PdfDict | undefined {
    if (isDict(operand)) return operand;
    const name = nameOf(operand);
    if (name === undefined) return undefined;
    return this.cos.dict(this.cos.dict(op.resources, 'Properties'), name);
  }
}

export const taggedContentBuilders: Builders<TaggedContentEmits> = {
  page: (source, out) => {
    const wantsPage = out.wants('page_content');
    if (!wantsPage && !out.wants('marked_content') && !out.wants('lang_entry')) return;
    // an encrypted file that could not be decrypted (a user password): what its content tags cannot be told
    if (source.cos.ciphertext) return;
    const node = new PageTagging(source, out).read();
    if (wantsPage) out.emit('page_content', node);
  },
};
