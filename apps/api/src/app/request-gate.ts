import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * Holds the requests that arrive before the start's last step is done (storing the demo keys it has just shown, so
 * that a key read off the banner is never refused, nor that refusal cached): they go on once it is done, and their
 * connections are dropped when the start fails instead.
 */
export class RequestGate {
  private opened = false;
  private settle: (opened: boolean) => void = () => undefined;
  private readonly settled = new Promise<boolean>((resolve) => (this.settle = resolve));

  readonly middleware: RequestHandler = (req: Request, _res: Response, next: NextFunction) => {
    if (this.opened) return next();
    void this.settled.then((opened) => (opened ? next() : req.socket.destroy()));
  };

  open(): void {
    this.opened = true;
    this.settle(true);
  }

  /** The start failed: the held requests' connections are dropped, so that closing the server does not wait for them. */
  fail(): void {
    this.settle(false);
  }
}
