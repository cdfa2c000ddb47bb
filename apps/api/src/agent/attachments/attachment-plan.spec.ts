import { DEFAULT_CAPTION, type IncomingFile, planBubbles } from './attachment-plan';

const file = (name: string, isImage: boolean): IncomingFile => ({ path: `/tmp/${name}`, name, size: 1, contentType: undefined, isImage });
const a = file('a.jpg', true);
const b = file('b.png', true);
const doc = file('doc.pdf', false);

function shape(bubbles: ReturnType<typeof planBubbles>) {
  return bubbles.map((x) => (x.kind === 'text' ? ['text', x.text] : x.kind === 'image' ? ['image', x.file.name, x.caption] : ['file', x.file.name]));
}

describe('planBubbles', () => {
  it('rich: the text is the first caption, later images get the default caption, one bubble each', () => {
    expect(shape(planBubbles([a, b], 'look', 'rich'))).toEqual([
      ['image', 'a.jpg', 'look'],
      ['image', 'b.png', DEFAULT_CAPTION],
    ]);
  });

  it('rich without text: a default caption on every image', () => {
    expect(shape(planBubbles([a], undefined, 'rich'))).toEqual([['image', 'a.jpg', DEFAULT_CAPTION]]);
    expect(shape(planBubbles([a], '  ', 'rich'))).toEqual([['image', 'a.jpg', DEFAULT_CAPTION]]);
  });

  it('plain: a separate text bubble before the photos, which carry no caption', () => {
    expect(shape(planBubbles([a, b], 'look', 'plain'))).toEqual([
      ['text', 'look'],
      ['image', 'a.jpg', null],
      ['image', 'b.png', null],
    ]);
  });

  it('a file sent with text yields a text bubble first, then the file bubble', () => {
    expect(shape(planBubbles([doc], 'the invoice', 'rich'))).toEqual([
      ['text', 'the invoice'],
      ['file', 'doc.pdf'],
    ]);
    expect(shape(planBubbles([doc], 'the invoice', 'plain'))).toEqual([
      ['text', 'the invoice'],
      ['file', 'doc.pdf'],
    ]);
  });

  it('images before files, the text carried by the first rich image', () => {
    expect(shape(planBubbles([doc, a], 'both', 'rich'))).toEqual([
      ['image', 'a.jpg', 'both'],
      ['file', 'doc.pdf'],
    ]);
  });

  it('numbers the images of a group', () => {
    const bubbles = planBubbles([a, b], undefined, 'rich');
    expect(bubbles.map((x) => (x.kind === 'image' ? x.groupIndex : -1))).toEqual([0, 1]);
  });
});
