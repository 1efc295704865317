import { Injectable, Module, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { lentFrom, withoutLifecycle } from './lend';

/** Counts its starts and stops, and keeps state its methods change. */
@Injectable()
class Subscriber implements OnApplicationBootstrap, OnApplicationShutdown {
  starts = 0;
  stops = 0;
  seen: string[] = [];

  onApplicationBootstrap(): void {
    this.starts++;
  }

  onApplicationShutdown(): void {
    this.stops++;
  }

  see(what: string): number {
    this.seen.push(what);
    return this.seen.length;
  }
}

@Injectable()
class Borrower {
  constructor(readonly subscriber: Subscriber) {}
}

@Module({ providers: [Subscriber] })
class OwnerModule {}

describe('lending instances to a second application', () => {
  it('the borrower uses the owner instance, and only the owner starts and stops it', async () => {
    const owner = await NestFactory.createApplicationContext(OwnerModule, { logger: false });
    @Module({ providers: [...lentFrom(owner, [Subscriber]), Borrower] })
    class BorrowerModule {}
    const borrower = await NestFactory.createApplicationContext(BorrowerModule, { logger: false });
    await owner.init();
    await borrower.init();
    const subscriber = owner.get(Subscriber);
    const lent = borrower.get(Borrower).subscriber;
    expect(lent.see('through the borrower')).toBe(1);
    expect(subscriber.seen).toEqual(['through the borrower']);
    expect(lent).toBeInstanceOf(Subscriber);
    await borrower.close();
    await owner.close();
    expect({ starts: subscriber.starts, stops: subscriber.stops }).toEqual({ starts: 1, stops: 1 });
  });

  it('leaves an instance without hooks, and a plain value, as they are', () => {
    const plain = { a: 1 };
    expect(withoutLifecycle(plain)).toBe(plain);
    expect(withoutLifecycle(false)).toBe(false);
    expect(withoutLifecycle(undefined)).toBeUndefined();
    const hooked = withoutLifecycle(new Subscriber());
    expect(hooked.onApplicationBootstrap).toBeUndefined();
    expect(typeof hooked.see).toBe('function');
  });
});
