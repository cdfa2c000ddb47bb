import { DEFAULT_CAPTION } from './attachment-plan';

/** An image bubble the messenger accepted. */
export interface SentImage {
  serial: string;
  url: string;
  caption: string | null;
  groupIndex: number;
}

/**
 * The images of one attachment send, as they are delivered. The agent's text goes on the first image that is
 * delivered, not only the first one planned: when that one fails, the next carries the text. Journaled as one
 * item as soon as the images are done, so the journal keeps the order the customer saw.
 */
export class ImageRun {
  private sent: SentImage[] = [];
  private used = false;
  private text: string | null;
  /** the agent's text when an earlier attempt of this keyed send put it on an image already */
  private readonly carriedBefore: string | null;

  /**
   * @param text the agent's text, to be the first caption (rich images); null when there is none to carry
   * @param carriedBefore an earlier attempt of this keyed send put the text on an image: it goes on no other
   */
  constructor(text: string | null, carriedBefore = false) {
    this.text = carriedBefore ? null : text;
    this.carriedBefore = carriedBefore ? text : null;
  }

  /** The caption an image gets: the agent's text until an image carried it, otherwise the planned one. */
  captionOf(planned: string | null): string | null {
    this.used = true;
    if (planned === null) return null;
    if (this.text !== null) return this.text;
    return planned === this.carriedBefore ? DEFAULT_CAPTION : planned;
  }

  delivered(image: SentImage): void {
    this.carried(image.caption);
    this.sent.push(image);
  }

  /** An image an earlier attempt of a keyed send delivered and journaled with its group: not journaled again. */
  deliveredBefore(caption: string | null): void {
    this.carried(caption);
  }

  private carried(caption: string | null): void {
    if (caption === this.text) this.text = null;
  }

  get groupSize(): number {
    return this.sent.length;
  }

  /**
   * Ends the run: the images delivered, to journal, and the agent's text when no image could carry it (it is then
   * sent as a text bubble of its own). Undefined when there was no image or it was ended already.
   */
  end(): { images: SentImage[]; uncarriedText: string | null } | undefined {
    if (!this.used) return undefined;
    const ended = { images: this.sent, uncarriedText: this.text };
    this.sent = [];
    this.text = null;
    this.used = false;
    return ended;
  }
}
