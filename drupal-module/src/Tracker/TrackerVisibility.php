<?php

declare(strict_types=1);

namespace Drupal\sitebeam\Tracker;

use Drupal\Core\Config\ConfigFactoryInterface;
use Drupal\Core\Path\CurrentPathStack;
use Drupal\Core\Path\PathMatcherInterface;
use Drupal\Core\Routing\AdminContext;
use Drupal\Core\Session\AccountInterface;
use Drupal\path_alias\AliasManagerInterface;

/**
 * Decides whether the current page view is tracked.
 *
 * The answer varies by the cache contexts user.roles and url.path (and the
 * sitebeam.settings cache tag): callers must add them.
 */
class TrackerVisibility {

  public function __construct(
    protected ConfigFactoryInterface $configFactory,
    protected AccountInterface $currentUser,
    protected CurrentPathStack $currentPath,
    protected PathMatcherInterface $pathMatcher,
    protected AdminContext $adminContext,
    protected ?AliasManagerInterface $aliasManager = NULL,
  ) {}

  /**
   * True when the current page and visitor are tracked.
   */
  public function shouldTrack(): bool {
    $config = $this->configFactory->get('sitebeam.settings');
    if (!$config->get('tracker.enabled') || trim((string) $config->get('base_url')) === '') {
      return FALSE;
    }
    if ($this->adminContext->isAdminRoute()) {
      return FALSE;
    }
    if (array_intersect($this->currentUser->getRoles(), (array) $config->get('visibility.roles'))) {
      return FALSE;
    }
    return !$this->isExcludedPath((array) $config->get('visibility.paths'));
  }

  /**
   * Matches the internal path and its alias, as core's block visibility does.
   */
  protected function isExcludedPath(array $patterns): bool {
    if ($patterns === []) {
      return FALSE;
    }
    $pattern_lines = mb_strtolower(implode("\n", $patterns));
    $path = $this->currentPath->getPath();
    $candidates = [mb_strtolower($path)];
    if ($this->aliasManager) {
      $candidates[] = mb_strtolower($this->aliasManager->getAliasByPath($path));
    }
    foreach (array_unique($candidates) as $candidate) {
      if ($this->pathMatcher->matchPath($candidate, $pattern_lines)) {
        return TRUE;
      }
    }
    return FALSE;
  }

}
