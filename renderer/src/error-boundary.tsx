/**
 * Catches a render error so the till never goes blank at the counter: the cashier sees a plain
 * message (no stack trace, no error text, which might hold a customer's number or a key) and one
 * button back to the Charge screen. Payments live in the till's core, not in the screen, so they
 * carry on whatever happened here. `logRenderError` is the root's error reporter: it logs only the
 * error's class name and the component stack (component names), never the error's message.
 */
import { Component, Fragment, createRef, type ReactNode } from 'react';

type Props = {
  children: ReactNode;
  /** Called as the boundary resets (same render), e.g. to show the Charge screen. */
  onReset?: () => void;
  /** A change of this value (e.g. the page shown) also resets a failed boundary. */
  resetKey?: unknown;
};

type State = { failed: boolean; generation: number };

export function logRenderError(error: unknown, info?: { componentStack?: string | null }): void {
  const name = error instanceof Error ? error.name : typeof error;
  console.error(`A screen failed to show (${name}).${info?.componentStack ? `\nIn:${info.componentStack}` : ''}`);
}

export class ErrorBoundary extends Component<Props, State> {
  override state: State = { failed: false, generation: 0 };
  private readonly buttonRef = createRef<HTMLButtonElement>();

  static getDerivedStateFromError(): Partial<State> {
    return { failed: true };
  }

  // No componentDidCatch: the error is reported (without its message) by the root's onCaughtError.

  override componentDidMount(): void {
    if (this.state.failed) this.buttonRef.current?.focus();
  }

  override componentDidUpdate(props: Props, previous: State): void {
    if (this.state.failed && !previous.failed) this.buttonRef.current?.focus();
    else if (this.state.failed && props.resetKey !== this.props.resetKey) this.restart();
  }

  /** A new generation remounts the children from scratch rather than re-rendering the broken tree. */
  private restart(): void {
    this.setState((s) => ({ failed: false, generation: s.generation + 1 }));
  }

  private readonly backToCharge = (): void => {
    this.props.onReset?.(); // batched with the restart: the children come back already on the new screen
    this.restart();
  };

  override render(): ReactNode {
    if (!this.state.failed) return <Fragment key={this.state.generation}>{this.props.children}</Fragment>;
    return (
      <section className="error-boundary" role="alert" aria-labelledby="error-boundary-title">
        <h2 id="error-boundary-title" className="screen-title">
          Something went wrong on this screen.
        </h2>
        <p>Your payments are safe.</p>
        <button ref={this.buttonRef} type="button" className="primary big" onClick={this.backToCharge}>
          Back to Charge
        </button>
      </section>
    );
  }
}
