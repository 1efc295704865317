import { DynamicModule, Module } from '@nestjs/common';
import { AccountsModule } from '../auth/accounts.module';
import { DEMO_OPTIONS, DemoOptions, DemoSeeder } from './demo-seeder';

/** The demo merchant and sandbox key made on an empty database (outside production). */
@Module({})
export class DemoModule {
  static forRoot(options: DemoOptions): DynamicModule {
    return {
      module: DemoModule,
      imports: [AccountsModule],
      providers: [{ provide: DEMO_OPTIONS, useValue: options }, DemoSeeder],
    };
  }
}
