<?php

declare(strict_types=1);

namespace Drupal\Tests\sitebeam\Kernel;

use Drupal\Component\Utility\Crypt;
use Drupal\Core\KeyValueStore\DatabaseStorageExpirable;
use Drupal\Core\KeyValueStore\KeyValueExpirableFactoryInterface;
use Drupal\Core\Lock\DatabaseLockBackend;
use Drupal\Core\Site\Settings;
use Drupal\KernelTests\KernelTestBase;
use Drupal\sitebeam\Endpoint\RateLimiter;
use Drupal\sitebeam\Endpoint\VisitorAddress;
use PHPUnit\Framework\Attributes\Group;
use Symfony\Component\HttpFoundation\Request;

/**
 * Posts counted at the same moment never pass the allowance together.
 *
 * Two requests are simulated by two limiters, each with the lock backend a
 * request of its own would have; the second post arrives while the first
 * has read the visitor's count and not yet written it.
 *
 * @group sitebeam
 */
#[Group('sitebeam')]
final class RateLimiterTest extends KernelTestBase {

  /**
   * {@inheritdoc}
   */
  protected static $modules = ['system'];

  private const COLLECTION = 'sitebeam.test_posts';

  /**
   * Tests that a post arriving between another's read and write is refused.
   */
  public function testPostArrivingMidCountIsRefusedUntilTheWindowPasses(): void {
    $database = $this->container->get('database');
    $time = $this->container->get('datetime.time');
    $second = new RateLimiter($this->container->get('keyvalue.expirable'), $time, new DatabaseLockBackend($database), self::COLLECTION);
    $visitor = Request::create('/sitebeam/contact', 'POST', [], [], [], ['REMOTE_ADDR' => '203.0.113.7']);

    $second_answer = 'not asked';
    $store = new class(self::COLLECTION, $this->container->get('serialization.phpserialize'), $database, $time) extends DatabaseStorageExpirable {

      /**
       * Runs once, right after the first read.
       *
       * @var callable|null
       */
      public $afterRead;

      /**
       * {@inheritdoc}
       */
      public function get($key, $default = NULL) {
        $value = parent::get($key, $default);
        $after_read = $this->afterRead;
        $this->afterRead = NULL;
        if ($after_read) {
          $after_read();
        }
        return $value;
      }

    };
    $store->afterRead = static function () use ($second, $visitor, &$second_answer): void {
      $second_answer = $second->hit($visitor, 1, 60);
    };
    $first = new RateLimiter(new class($store) implements KeyValueExpirableFactoryInterface {

      public function __construct(private DatabaseStorageExpirable $store) {}

      /**
       * {@inheritdoc}
       */
      public function get($collection) {
        return $this->store;
      }

    }, $time, new DatabaseLockBackend($database), self::COLLECTION);

    $this->assertNull($first->hit($visitor, 1, 60), 'The first post is within the allowance of one.');
    $this->assertSame(1, $second_answer, 'The post that came meanwhile is refused, not counted from the stale read.');
    $this->assertContains($second->hit($visitor, 1, 60), range(58, 60), 'Then the count itself refuses, the lock released.');
    $other = Request::create('/sitebeam/contact', 'POST', [], [], [], ['REMOTE_ADDR' => '203.0.113.8']);
    $this->assertNull($second->hit($other, 1, 60), 'Another visitor has an allowance of their own.');
  }

  /**
   * Tests that the store knows a visitor by an HMAC of their address only.
   */
  public function testStoreKeysAreKeyedHashesOfTheAddresses(): void {
    $limiter = new RateLimiter($this->container->get('keyvalue.expirable'), $this->container->get('datetime.time'), $this->container->get('lock'), self::COLLECTION);
    $this->assertNull($limiter->hit(Request::create('/', 'POST', [], [], [], ['REMOTE_ADDR' => '203.0.113.7']), 5, 60));
    $this->assertNull($limiter->hit(Request::create('/', 'POST', [], [], [], ['REMOTE_ADDR' => '2001:db8:1:2:3:4:5:6']), 5, 60));

    $rows = $this->container->get('database')->select('key_value_expire', 'k')
      ->fields('k', ['name', 'value'])
      ->condition('collection', self::COLLECTION)
      ->execute()
      ->fetchAllKeyed();
    $this->assertEqualsCanonicalizing([
      Crypt::hmacBase64('203.0.113.7', Settings::getHashSalt()),
      Crypt::hmacBase64(VisitorAddress::fromIp('2001:db8:1:2:3:4:5:6'), Settings::getHashSalt()),
    ], array_keys($rows));
    $stored = implode("\n", array_keys($rows)) . "\n" . implode("\n", $rows);
    foreach (['203.0.113', '20010db8', '2001:db8'] as $address) {
      $this->assertStringNotContainsStringIgnoringCase($address, $stored);
    }
  }

}
