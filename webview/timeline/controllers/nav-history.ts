// Back / forward through the events the user jumped between (Alt+Left / Alt+Right), like an editor's
// navigation history: following a link pushes the place left, going back and then following a new
// link drops the forward entries.

export class NavHistory<T> {
  private readonly back: T[] = [];
  private readonly forward: T[] = [];

  constructor(private readonly limit = 200) {}

  /** Records `from` as the place to return to before moving somewhere else. */
  visit(from: T | undefined): void {
    if (from === undefined) return;
    this.back.push(from);
    if (this.back.length > this.limit) this.back.shift();
    this.forward.length = 0;
  }

  goBack(current: T | undefined): T | undefined {
    const target = this.back.pop();
    if (target !== undefined && current !== undefined) this.forward.push(current);
    return target;
  }

  goForward(current: T | undefined): T | undefined {
    const target = this.forward.pop();
    if (target !== undefined && current !== undefined) this.back.push(current);
    return target;
  }

  get canGoBack(): boolean {
    return this.back.length > 0;
  }
  get canGoForward(): boolean {
    return this.forward.length > 0;
  }
}
